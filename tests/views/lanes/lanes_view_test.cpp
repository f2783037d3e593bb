#include <gtest/gtest.h>

#include <qcustomplot.h>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QImage>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QVBoxLayout>

#include "breakerlab/core/outcome/fleet.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/views/lane_colors.h"
#include "breakerlab/views/lanes_view.h"
#include "lanes/label_layout.h"
#include "lanes/lane_brackets.h"
#include "lanes/lane_fold.h"
#include "lanes/lanes_plottable.h"
#include "lanes/overview_strip.h"
#include "lanes/time_axis.h"
#include "test_incident.h"

// The widget's own behaviour: rows laid out, drawn in their colours, labels that do not pile up,
// cursors, the fleet's expansion and its scrolling, exports. What the annotations say is tested
// apart, with hand-made lanes (lane_brackets_test, lane_annotations_test); what the model
// replays, in tests/core. A replay here is only an input.
namespace breakerlab::views {
namespace {

// The middle of a lane's first interval in `state`, in seconds.
double middleOf(const Lane& lane, std::string_view state) {
  for (const LaneInterval& i : lane.intervals)
    if (i.state == state) return toSeconds(i.from + (i.to - i.from) / 2);
  ADD_FAILURE() << "no " << state << " in " << lane.name;
  return 0;
}

// The plottable's row drawn at a widget rect's vertical centre (the plottable holds every row;
// LanesView has no accessor for what a row folds to).
std::optional<std::size_t> plottableRowAt(const LanesView& view, const QRect& rect) {
  auto* plot = view.plot();
  auto* lanes = qobject_cast<LanesPlottable*>(plot->plottable(0));
  if (lanes == nullptr || rect.isEmpty()) return std::nullopt;
  const double y = plot->yAxis->pixelToCoord(rect.center().y() - plot->pos().y());
  for (std::size_t i = 0; i < lanes->rows().size(); ++i)
    if (lanes->rows()[i].top <= y && y <= lanes->rows()[i].bottom) return i;
  return std::nullopt;
}

Folded foldOf(const LanesView& view, const QRect& rect) {
  const auto i = plottableRowAt(view, rect);
  return i ? qobject_cast<LanesPlottable*>(view.plot()->plottable(0))->foldedRow(*i) : Folded{};
}

std::vector<std::pair<QString, QRectF>> namesIn(const LanesView& view, const QRect& rect) {
  const auto i = plottableRowAt(view, rect);
  if (!i) return {};
  auto names = qobject_cast<LanesPlottable*>(view.plot()->plottable(0))->rowNames(*i);
  for (auto& [name, r] : names) r.translate(view.plot()->pos());
  return names;
}

struct LanesViewTest : ::testing::Test {
  LanesViewTest() : deployed(simulate(test::incident0908(), test::incident0908().deployed)) {
    view.resize(1200, 600);
    view.setIncident(test::incident0908());
    view.setResults(deployed, nullptr);
    view.show();
    view.replotNow();
  }
  Result deployed;
  LanesView view;
};

TEST_F(LanesViewTest, RowsAreLaidOutTopToBottomRecordedAboveReplayedNoneOverlapping) {
  const QRect rows[] = {
      view.rowRect("breaker", RowKind::recorded), view.rowRect("breaker", RowKind::replayed),
      view.rowRect("dependency", RowKind::replayed), view.rowRect("checkout", RowKind::recorded),
      view.rowRect("checkout", RowKind::replayed)};
  for (std::size_t i = 0; i < std::size(rows); ++i) {
    ASSERT_FALSE(rows[i].isEmpty()) << i;
    EXPECT_GE(rows[i].height(), 8) << i;
    if (i > 0) {
      EXPECT_GT(rows[i].top(), rows[i - 1].bottom()) << i;
    }
  }
  // Every interval of the result is a bar of its row.
  EXPECT_EQ(view.rowSpans("breaker", RowKind::replayed).size(), deployed.breaker.intervals.size());
  EXPECT_EQ(view.rowSpans("breaker", RowKind::recorded).size(),
            test::incident0908().recorded.lane("breaker")->intervals.size());
  EXPECT_TRUE(view.rowSpans("breaker", RowKind::baseline).empty()) << "no ghost when untuned";
  EXPECT_TRUE(view.rowRect("fleet", RowKind::replayed).isEmpty()) << "one breaker: no fleet row";
}

TEST_F(LanesViewTest, LanesArePaintedInTheirStateColours) {
  const QImage image = view.grab().toImage();
  // The middle of the replayed breaker row at t=20 s (open) is red, at t=5 s (closed) green.
  const QRect row = view.rowRect("breaker", RowKind::replayed);
  ASSERT_FALSE(row.isEmpty());
  auto* plot = view.plot();
  auto pixelAt = [&](double seconds) {
    const int x = static_cast<int>(plot->xAxis->coordToPixel(seconds)) + plot->pos().x();
    return image.pixelColor(x, row.bottom() - 2);  // below a state's name
  };
  EXPECT_EQ(pixelAt(middleOf(deployed.breaker, "open")).rgb(), palette::kBad.rgb());
  EXPECT_EQ(pixelAt(middleOf(deployed.breaker, "closed")).rgb(), palette::kGood.rgb());
  EXPECT_EQ(pixelAt(middleOf(deployed.breaker, "half-open")).rgb(), palette::kProbing.rgb());
  const QRect checkout = view.rowRect("checkout", RowKind::replayed);
  const int x = static_cast<int>(plot->xAxis->coordToPixel(middleOf(deployed.checkout, "cached"))) +
                plot->pos().x();
  EXPECT_EQ(image.pixelColor(x, checkout.bottom() - 2).rgb(), palette::kCached.rgb());
}

TEST_F(LanesViewTest, TunedConfigShowsTheDeployedGhost) {
  Config early = test::incident0908().deployed;
  early.breaker.early_probe = true;
  const Result tuned = simulate(test::incident0908(), early);
  view.setResults(tuned, &deployed);
  EXPECT_EQ(view.rowSpans("breaker", RowKind::baseline).size(), deployed.breaker.intervals.size());
  EXPECT_DOUBLE_EQ(view.rowSpans("breaker", RowKind::replayed).back().first,
                   toSeconds(tuned.breaker.intervals.back().from));
  const QRect ghost = view.rowRect("breaker", RowKind::baseline);
  EXPECT_GT(ghost.top(), view.rowRect("breaker", RowKind::replayed).bottom()) << "under its row";
  EXPECT_LT(ghost.height(), view.rowRect("breaker", RowKind::replayed).height()) << "thin";
}

TEST_F(LanesViewTest, CursorsSnapToStateChangesAndMeasureTheInterval) {
  const double trip = toSeconds(deployed.breaker.intervals[1].from);
  const double reopen = toSeconds(deployed.breaker.intervals[3].from);
  view.setCursorAt(0, trip);
  view.setCursorAt(1, reopen);
  const QString text = view.readoutText();
  EXPECT_TRUE(text.contains(QString("Δt = %1 s").arg(reopen - trip, 0, 'f', 3)))
      << text.toStdString();
  // The readout names each lane's state at the time.
  const double open = middleOf(deployed.breaker, "open");
  const QString readout = view.readoutAt(open);
  EXPECT_TRUE(readout.contains("Breaker open")) << readout.toStdString();
  EXPECT_TRUE(readout.contains(QString::fromStdString(
      "Pricing " + std::string(deployed.dependency.stateAt(fromSeconds(open))))))
      << readout.toStdString();

  // Key 1 with the mouse 3 px from the trip edge snaps onto it.
  auto* plot = view.plot();
  const int x = static_cast<int>(plot->xAxis->coordToPixel(trip)) + 3;
  QTest::mouseMove(plot, QPoint(x, plot->axisRect()->center().y()));
  QTest::keyClick(plot, Qt::Key_1);
  ASSERT_TRUE(view.cursorAt(0).has_value());
  EXPECT_DOUBLE_EQ(*view.cursorAt(0), trip);
}

// The readout is two lines high and wrapped: hover, A, B and Δt made four or more lines, and the
// cursors' were cut under the legend (issue #33 walkthrough). Now two lines, each elided to the
// readout's width: the pointer's, then both cursors' times and Δt (or, without the pointer, A's
// and B's states); everything in the tooltip.
TEST_F(LanesViewTest, TheReadoutShowsThePointerAndBothCursorsWithinItsTwoLines) {
  view.resize(520, 400);
  view.show();
  const double trip = toSeconds(deployed.breaker.intervals[1].from);
  const double reopen = toSeconds(deployed.breaker.intervals[3].from);
  view.setCursorAt(0, trip);
  view.setCursorAt(1, reopen);
  const QLabel* readout = view.readoutLabel();
  const QFontMetrics metrics = readout->fontMetrics();
  const auto expectFits = [&](const char* what) {
    const QStringList shown = readout->text().split('\n');
    EXPECT_LE(shown.size(), 2) << what;
    EXPECT_GE(readout->height(), metrics.lineSpacing() * shown.size()) << what;
    for (const QString& line : shown)
      EXPECT_LE(metrics.horizontalAdvance(line), readout->contentsRect().width())
          << what << ": " << line.toStdString();
    EXPECT_EQ(readout->toolTip(), view.readoutText()) << what << ": whole in the tooltip";
  };
  // Without the pointer: A's line, and B's with Δt.
  QStringList shown = view.readoutShown();
  ASSERT_EQ(shown.size(), 2);
  EXPECT_TRUE(shown[0].startsWith("A at ")) << shown[0].toStdString();
  // 8 Sep's axis reads the clock (it started at 14:02:00 UTC), and so does the readout.
  const std::optional<Micros> clock = axisClock(test::incident0908());
  ASSERT_TRUE(clock.has_value());
  EXPECT_TRUE(shown[1].startsWith(QString("B at %1 (Δt = %2 s)")
                                      .arg(readoutTimeText(clock, reopen, 3))
                                      .arg(reopen - trip, 0, 'f', 3)))
      << shown[1].toStdString();
  EXPECT_TRUE(shown[1].startsWith("B at 14:02:")) << shown[1].toStdString();
  expectFits("without the pointer");
  // With it: the pointer's line, then the cursors' times and Δt.
  QTest::mouseMove(view.plot(), view.plot()->axisRect()->center());
  shown = view.readoutShown();
  ASSERT_EQ(shown.size(), 2);
  EXPECT_EQ(shown[1], QString("A at %1 · B at %2 · Δt = %3 s")
                          .arg(readoutTimeText(clock, trip, 3))
                          .arg(readoutTimeText(clock, reopen, 3))
                          .arg(reopen - trip, 0, 'f', 3));
  EXPECT_TRUE(shown[0].startsWith("14:02:")) << "the pointer's time: " << shown[0].toStdString();
  expectFits("with the pointer");
  EXPECT_EQ(view.readoutText().split('\n').size(), 3) << "the tooltip has all three";
}

// "Press 1 or 2 over the lanes": the lanes take the keys when the mouse comes over them, without
// a click first, but not from a box the user is typing into.
TEST_F(LanesViewTest, TheLanesTakeTheCursorKeysWhenTheMouseComesOverThem) {
  QWidget window;
  auto* layout = new QVBoxLayout(&window);
  auto* box = new QDoubleSpinBox;
  auto* button = new QPushButton(QStringLiteral("elsewhere"));
  layout->addWidget(box);
  layout->addWidget(button);
  view.setParent(&window);
  layout->addWidget(&view);
  window.resize(900, 600);
  window.show();
  QApplication::setActiveWindow(&window);
  ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
  auto* plot = view.plot();
  const auto enter = [plot] {
    QEnterEvent event(QPointF(10, 10), QPointF(10, 10), plot->mapToGlobal(QPointF(10, 10)));
    QApplication::sendEvent(plot, &event);
  };
  box->setFocus();
  enter();
  EXPECT_TRUE(box->hasFocus()) << "typing into a box keeps its focus";
  button->setFocus();
  enter();
  EXPECT_TRUE(plot->hasFocus());
  view.setParent(nullptr);  // the fixture owns the view
}

TEST_F(LanesViewTest, RendersPngSvgAndPdf) {
  const std::vector<std::pair<QString, QByteArray>> formats = {
      {"png", "\x89PNG"}, {"svg", "<?xml"}, {"PDF", "%PDF-"}};
  for (const auto& [format, magic] : formats) {
    QString error;
    const std::optional<QByteArray> bytes = view.renderImage(format, &error);
    ASSERT_TRUE(bytes) << error.toStdString();
    EXPECT_GT(bytes->size(), 1000) << format.toStdString();
    EXPECT_TRUE(bytes->startsWith(magic)) << format.toStdString();
  }
  QString error;
  EXPECT_FALSE(view.renderImage("bmpx", &error));
  EXPECT_TRUE(error.contains("png"));
}

}  // namespace
}  // namespace breakerlab::views

namespace breakerlab::views {
namespace {

TEST(LanesViewPalette, FollowsADarkPalette) {
  const Result deployed = simulate(test::incident0908(), test::incident0908().deployed);
  LanesView view;
  view.resize(1000, 500);
  QPalette dark;
  dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x26));
  dark.setColor(QPalette::Base, QColor(0x18, 0x1a, 0x1e));
  dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
  dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
  view.setPalette(dark);
  view.setIncident(test::incident0908());
  view.setResults(deployed, nullptr);
  view.show();
  view.replotNow();
  const QImage image = view.grab().toImage();
  // Between two lane groups the plot background shows: it is the dark base colour.
  const QRect breaker = view.rowRect("breaker", RowKind::replayed);
  const QPoint gap(breaker.center().x(), breaker.bottom() + 6);
  EXPECT_LT(image.pixelColor(gap).lightness(), 60);
  // The lanes keep their state colours.
  EXPECT_EQ(image.pixelColor(breaker.center()).rgb(), palette::kBad.rgb());  // t=30: open
}

}  // namespace
}  // namespace breakerlab::views

namespace breakerlab::views {
namespace {

// The 8 Sep replay with a load balancer's pods lane and its events added: all 8 pods until
// 10 s, 6 of 8 until 20 s, none until 25 s, then all again.
Result withPods(Result r) {
  r.pods.name = "pods";
  r.pods.append("8 of 8 pods", 0, 10 * kSecond);
  r.pods.append("6 of 8 pods", 10 * kSecond, 20 * kSecond);
  r.pods.append("0 of 8 pods", 20 * kSecond, 25 * kSecond);
  r.pods.append("8 of 8 pods", 25 * kSecond, 60 * kSecond);
  auto add = [&](double at, EventKind kind, int pod, int in_rotation) {
    r.events.push_back({fromSeconds(at), kind, "pods",
                        "pod " + std::to_string(pod) +
                            (kind == EventKind::pod_ejected ? " ejected by the load balancer"
                                                            : " back in rotation") +
                            " (" + std::to_string(in_rotation) + " of 8)"});
  };
  add(10, EventKind::pod_ejected, 1, 7);
  add(10, EventKind::pod_ejected, 2, 6);
  for (int pod = 3; pod <= 8; ++pod) add(20, EventKind::pod_ejected, pod, 8 - pod);
  for (int pod = 1; pod <= 8; ++pod) add(25, EventKind::pod_returned, pod, pod);
  std::stable_sort(r.events.begin(), r.events.end(),
                   [](const Event& a, const Event& b) { return a.at < b.at; });
  return r;
}

// The event labels under the lanes, in widget pixels.
std::vector<std::pair<QString, QRectF>> eventLabels(const LanesView& view) {
  std::vector<std::pair<QString, QRectF>> labels;
  auto* plot = view.plot();
  for (int i = 0; i < plot->itemCount(); ++i) {
    auto* text = qobject_cast<QCPItemText*>(plot->item(i));
    if (text == nullptr || text->position->coords().y() <= 0) continue;  // brackets are above
    const QPointF at = text->position->pixelPosition();
    const QFontMetricsF metrics(text->font());
    const double width = metrics.horizontalAdvance(text->text());
    const double left = (text->positionAlignment() & Qt::AlignRight) ? at.x() - width : at.x();
    labels.emplace_back(text->text(), QRectF(left, at.y(), width, metrics.height()));
  }
  return labels;
}

struct PodsLaneTest : ::testing::Test {
  PodsLaneTest()
      : deployed(simulate(test::incident0908(), test::incident0908().deployed)),
        pods(withPods(deployed)) {
    view.resize(1200, 700);
    view.setIncident(test::incident0908());
    view.setResults(pods, nullptr);
    view.show();
    view.replotNow();
  }
  Result deployed;
  Result pods;
  LanesView view;
};

TEST_F(PodsLaneTest, ColoursTheNumberOfPodsInRotationBelowTheCheckoutLane) {
  const auto spans = view.rowSpans("pods", RowKind::replayed);
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_DOUBLE_EQ(spans[1].first, 10.0);
  EXPECT_DOUBLE_EQ(spans[2].second, 25.0);
  const QRect row = view.rowRect("pods", RowKind::replayed);
  ASSERT_FALSE(row.isEmpty());
  EXPECT_GT(row.top(), view.rowRect("checkout", RowKind::replayed).bottom());

  const QImage image = view.grab().toImage();
  auto* plot = view.plot();
  auto pixelAt = [&](double seconds) {
    const int x = static_cast<int>(plot->xAxis->coordToPixel(seconds)) + plot->pos().x();
    return image.pixelColor(x, row.top() + 2).rgb();  // above the ticks along the bottom
  };
  EXPECT_EQ(pixelAt(5), palette::kGood.rgb()) << "8 of 8";
  const QRgb six_of_eight = stateColor("pods", "6 of 8 pods").rgb();
  EXPECT_EQ(pixelAt(15), six_of_eight) << "6 of 8";
  EXPECT_EQ(pixelAt(22.5), palette::kBad.rgb()) << "0 of 8";
  EXPECT_EQ(pixelAt(40), palette::kGood.rgb());
  // The ticks along its bottom: ink, not the state's colour, where the pods were ejected.
  const int x = static_cast<int>(plot->xAxis->coordToPixel(20)) + plot->pos().x();
  bool tick = false;
  for (int dx = -1; dx <= 1; ++dx)
    tick = tick || image.pixelColor(x + dx, row.bottom() - 1).rgb() != six_of_eight;
  EXPECT_TRUE(tick);
}

TEST_F(PodsLaneTest, HoverReadoutAndCursorsKnowThePodsLane) {
  EXPECT_TRUE(view.readoutAt(15).contains("6 of 8 pods in rotation"))
      << view.readoutAt(15).toStdString();
  auto* plot = view.plot();
  const int x = static_cast<int>(plot->xAxis->coordToPixel(25)) - 3;
  QTest::mouseMove(plot, QPoint(x, plot->axisRect()->center().y()));
  QTest::keyClick(plot, Qt::Key_2);
  ASSERT_TRUE(view.cursorAt(1).has_value());
  EXPECT_DOUBLE_EQ(*view.cursorAt(1), 25.0) << "snaps to the pods returning";
}

TEST_F(PodsLaneTest, NoPodsRowWithoutHealthChecksAndAGhostOfTheDeployedPods) {
  view.setResults(deployed, nullptr);
  EXPECT_TRUE(view.rowSpans("pods", RowKind::replayed).empty());
  EXPECT_TRUE(view.rowRect("pods", RowKind::replayed).isEmpty()) << "no empty row";
  EXPECT_FALSE(view.readoutAt(15).contains("pods"));

  view.setResults(pods, &deployed);  // tuned: health checks on, deployed without
  EXPECT_EQ(view.rowSpans("pods", RowKind::replayed).size(), 4u);
  EXPECT_TRUE(view.rowRect("pods", RowKind::baseline).isEmpty());
  view.setResults(deployed, &pods);  // tuned: health checks off, deployed with
  EXPECT_FALSE(view.rowRect("pods", RowKind::replayed).isEmpty()) << "the row stays";
  EXPECT_EQ(view.rowSpans("pods", RowKind::baseline).size(), 4u);
}

TEST_F(PodsLaneTest, AFlappingLoadBalancerGetsTicksAndASummaryNotAPileOfLabels) {
  Result flapping = deployed;
  flapping.pods.name = "pods";
  for (int i = 0; i < 60; ++i) {  // pod 1 out and back every half second from 12 s to 42 s
    const Micros at = 12 * kSecond + i * kSecond / 2;
    const bool out = i % 2 == 0;
    flapping.pods.append(out ? "7 of 8 pods" : "8 of 8 pods", at, at + kSecond / 2);
    flapping.events.push_back(
        {at, out ? EventKind::pod_ejected : EventKind::pod_returned, "pods",
         out ? "pod 1 ejected by the load balancer (7 of 8)" : "pod 1 back in rotation (8 of 8)"});
  }
  std::stable_sort(flapping.events.begin(), flapping.events.end(),
                   [](const Event& a, const Event& b) { return a.at < b.at; });
  view.setResults(flapping, nullptr);
  view.replotNow();

  const auto labels = eventLabels(view);
  int pod_labels = 0;
  for (const auto& [text, rect] : labels) pod_labels += text.startsWith("pod") ? 1 : 0;
  EXPECT_GE(pod_labels, 1);
  EXPECT_LE(pod_labels, 3) << "nearby events share a label";
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      EXPECT_FALSE(labels[i].second.intersects(labels[j].second))
          << labels[i].first.toStdString() << " overlaps " << labels[j].first.toStdString();

  // Zoomed in, the flapping spreads out and gets more labels, still without overlaps.
  view.plot()->xAxis->setRange(12, 16);
  view.replotNow();
  const auto zoomed = eventLabels(view);
  int zoomed_pod_labels = 0;
  for (const auto& [text, rect] : zoomed) zoomed_pod_labels += text.startsWith("pod") ? 1 : 0;
  EXPECT_GT(zoomed_pod_labels, pod_labels);
  for (std::size_t i = 0; i < zoomed.size(); ++i)
    for (std::size_t j = i + 1; j < zoomed.size(); ++j)
      EXPECT_FALSE(zoomed[i].second.intersects(zoomed[j].second))
          << zoomed[i].first.toStdString() << " overlaps " << zoomed[j].first.toStdString();
}

// All text items over or under the lanes (brackets above, events below), in widget pixels.
std::vector<std::pair<QString, QRectF>> allLabels(const LanesView& view) {
  std::vector<std::pair<QString, QRectF>> labels;
  auto* plot = view.plot();
  for (int i = 0; i < plot->itemCount(); ++i) {
    auto* text = qobject_cast<QCPItemText*>(plot->item(i));
    if (text == nullptr || text->layer()->name() == "cursors") continue;
    const QPointF at = text->position->pixelPosition();
    const QFontMetricsF metrics(text->font());
    const double width = metrics.horizontalAdvance(text->text());
    double left = at.x();
    if (text->positionAlignment() & Qt::AlignRight) left -= width;
    if (text->positionAlignment() & Qt::AlignHCenter) left -= width / 2;
    double top = at.y();
    if (text->positionAlignment() & Qt::AlignBottom) top -= metrics.height();
    labels.emplace_back(text->text(), QRectF(left, top, width, metrics.height()));
  }
  return labels;
}

// The texts drawn above the lanes (the brackets' labels).
std::vector<std::string> bracketTexts(const LanesView& view) {
  std::vector<std::string> texts;
  auto* plot = view.plot();
  for (int i = 0; i < plot->itemCount(); ++i) {
    auto* text = qobject_cast<QCPItemText*>(plot->item(i));
    if (text && text->layer()->name() != "cursors" && text->position->coords().y() < 0)
      texts.push_back(text->text().toStdString());
  }
  return texts;
}

TEST_F(LanesViewTest, AFlappingBreakerDoesNotPileUpLabels) {
  // A 1 s open interval re-probes a refusing Pricing every couple of seconds: dozens of opens.
  Config flapping = test::incident0908().deployed;
  flapping.breaker.open_interval = kSecond;
  flapping.breaker.backoff_max = kSecond;
  const Result r = simulate(test::incident0908(), flapping);
  int opens = 0;
  for (const auto& i : r.breaker.intervals) opens += i.state == "open" ? 1 : 0;
  ASSERT_GE(opens, 10);
  view.setResults(r, &deployed);
  view.replotNow();
  const auto labels = allLabels(view);
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      EXPECT_FALSE(labels[i].second.intersects(labels[j].second))
          << labels[i].first.toStdString() << " overlaps " << labels[j].first.toStdString();
  // The brackets drawn are some of those computed, the first (the time to trip) among them.
  const auto computed = laneBrackets(r, "Pricing");
  const auto drawn = bracketTexts(view);
  EXPECT_LT(drawn.size(), computed.size()) << "not every bracket fits";
  ASSERT_FALSE(computed.empty());
  EXPECT_TRUE(std::count(drawn.begin(), drawn.end(), computed.front().label.toStdString()));
}

// A breaker that flaps 5,000 times in the 60 s window: 10,000 transitions in view.
Result flapping10k(const Result& deployed) {
  Result r = deployed;
  r.breaker.intervals.clear();
  std::erase_if(r.events, [](const Event& e) {
    return e.kind == EventKind::trip || e.kind == EventKind::close ||
           e.kind == EventKind::half_open || e.kind == EventKind::reopen;
  });
  const Micros step = 60 * kSecond / 10'000;
  for (int i = 0; i < 10'000; ++i) {
    const Micros at = i * step;
    const bool open = i % 2 == 1;
    r.breaker.append(open ? "open" : "closed", at, at + step);
    if (i > 0)
      r.events.push_back(
          {at, open ? EventKind::trip : EventKind::close, "breaker", open ? "trip" : "close"});
  }
  std::stable_sort(r.events.begin(), r.events.end(),
                   [](const Event& a, const Event& b) { return a.at < b.at; });
  return r;
}

int dashedMarkers(const LanesView& view) {
  int n = 0;
  for (int i = 0; i < view.plot()->itemCount(); ++i)
    if (auto* line = qobject_cast<QCPItemLine*>(view.plot()->item(i)))
      n += line->pen().style() == Qt::DashLine ? 1 : 0;
  return n;
}

TEST_F(LanesViewTest, TenThousandTransitionsInViewFoldIntoOneMarkPerPixelColumn) {
  const Result r = flapping10k(deployed);
  view.setResults(r, nullptr);
  view.replotNow();
  const Folded fold = foldOf(view, view.rowRect("breaker", RowKind::replayed));
  const QRect area = view.plot()->axisRect()->rect();
  ASSERT_FALSE(fold.marks.empty());
  EXPECT_LE(fold.marks.size(), static_cast<std::size_t>(area.width() + 1));
  int mixed = 0, previous_end = fold.marks.front().x0;
  for (const FoldedMark& m : fold.marks) {
    EXPECT_EQ(m.x0, previous_end) << "marks neither overlap nor leave gaps";
    previous_end = m.x1;
    mixed += m.mixed() ? 1 : 0;
  }
  EXPECT_GT(mixed, area.width() * 9 / 10) << "a flicker of states shows as their shares";
  // Each mixed column is about half open, half closed.
  const FoldedMark& middle = fold.marks[fold.marks.size() / 2];
  ASSERT_TRUE(middle.mixed());
  for (auto i = middle.shares_begin; i < middle.shares_end; ++i)
    EXPECT_NEAR(fold.shares[i].share, 0.5, 0.1);
  EXPECT_TRUE(namesIn(view, view.rowRect("breaker", RowKind::replayed)).empty())
      << "no room for a name";

  // The transitions are one counted cluster, not ten thousand dashed lines.
  EXPECT_EQ(dashedMarkers(view), 0);
  const auto labels = allLabels(view);
  EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const auto& l) {
    return l.first.contains(QStringLiteral(" trips, "));
  })) << "a count of the trips (what it says: lane_annotations_test)";
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      EXPECT_FALSE(labels[i].second.intersects(labels[j].second))
          << labels[i].first.toStdString() << " overlaps " << labels[j].first.toStdString();

  // Zoomed in to 60 ms, six transitions: drawn one by one, with names in the wide segments.
  view.plot()->xAxis->setRange(30, 30.06);
  view.replotNow();
  EXPECT_GE(dashedMarkers(view), 5);
  const Folded zoomed = foldOf(view, view.rowRect("breaker", RowKind::replayed));
  EXPECT_TRUE(std::none_of(zoomed.marks.begin(), zoomed.marks.end(),
                           [](const FoldedMark& m) { return m.mixed(); }));
  const auto names = namesIn(view, view.rowRect("breaker", RowKind::replayed));
  EXPECT_GE(names.size(), 4u);
  for (const auto& [name, rect] : names) EXPECT_TRUE(name == "open" || name == "closed");
}

TEST_F(LanesViewTest, StateNamesAreWrittenInsideSegmentsWideEnoughForThem) {
  const auto names = namesIn(view, view.rowRect("breaker", RowKind::replayed));
  ASSERT_FALSE(names.empty());
  const QRect row = view.rowRect("breaker", RowKind::replayed);
  bool open = false;
  for (const auto& [name, rect] : names) {
    open = open || name == "open";
    EXPECT_GE(rect.left(), row.left() - 1);
    EXPECT_LE(rect.right(), row.right() + 1);
    EXPECT_GE(rect.width(), QFontMetricsF(view.plot()->font()).horizontalAdvance(name));
  }
  EXPECT_TRUE(open);
  EXPECT_TRUE(namesIn(view, view.rowRect("breaker", RowKind::baseline)).empty());
}

// The walkthrough of issue #33: on 14 Aug (a breaker off, 8 pods) the Breaker lane read
// "disabled" and "▸ Breakers by pod" under it "closed". A breaker off throughout has no pods'
// row; turned on, it has.
TEST(LanesViewPods, ABreakerOffThroughoutHasNoPodsRow) {
  const Incident incident = loadIncident(test::resourcePath("incidents/inc-2026-0814-orders.yaml"));
  ASSERT_FALSE(incident.deployed.breaker.enabled);
  LanesView view;
  view.resize(900, 600);
  view.setIncident(incident);
  const Result off = simulate(incident, incident.deployed);
  view.setResults(off, nullptr);
  view.show();
  view.replotNow();
  EXPECT_TRUE(view.rowRect("fleet", RowKind::replayed).isEmpty());
  EXPECT_FALSE(view.hasPods());
  Config on = incident.deployed;
  on.breaker.enabled = true;
  const Result with_breaker = simulate(incident, on);
  view.setResults(with_breaker, nullptr);
  view.replotNow();
  EXPECT_FALSE(view.rowRect("fleet", RowKind::replayed).isEmpty());
}

// Issue #33, item 7: in the lanes a 1024 x 700 window leaves (about 630 x 340 pixels), the thin
// recorded rows lost their names: a row lower than the font's line had none. Each recorded row
// still names its states, in a smaller font that fits inside the row.
TEST(LanesViewShort, RecordedRowsKeepTheirNamesAt1024x700) {
  for (const char* file : {"inc-2026-0908-pricing", "inc-2026-0814-orders"}) {
    const Incident incident =
        loadIncident(test::resourcePath(std::string("incidents/") + file + ".yaml"));
    const Result deployed = simulate(incident, incident.deployed);
    LanesView view;
    view.resize(630, 340);
    view.setIncident(incident);
    view.setResults(deployed, nullptr);
    view.show();
    view.replotNow();
    for (const char* lane : {"breaker", "dependency", "checkout"}) {
      if (incident.recorded.lane(lane) == nullptr) continue;
      const QRect row = view.rowRect(lane, RowKind::recorded);
      const auto names = namesIn(view, row);
      EXPECT_FALSE(names.empty()) << file << " " << lane << " recorded, " << row.height() << " px";
      for (const auto& [name, rect] : names) {
        EXPECT_LE(rect.height(), row.height() + 1)
            << file << " " << lane << " " << name.toStdString();
        EXPECT_GE(rect.top(), row.top() - 1) << file << " " << lane << " " << name.toStdString();
      }
    }
  }
}

TEST_F(LanesViewTest, BracketsOffScreenAreHiddenAndLabelsFollowTheVisiblePart) {
  // Zoomed in after the first trip: the time-to-trip bracket, which ends there, is off screen.
  view.plot()->xAxis->setRange(middleOf(deployed.breaker, "open"), 60);
  view.replotNow();
  const auto labels = bracketTexts(view);
  EXPECT_TRUE(std::none_of(labels.begin(), labels.end(), [](const std::string& l) {
    return l.find("to trip") != std::string::npos;
  })) << ::testing::PrintToString(labels);
}

TEST_F(LanesViewTest, TheLegendNamesEveryLanesStatesInTheirColours) {
  // Without the word joiners that keep a hyphenated name on one line.
  const QString legend = view.legendText().remove(QStringLiteral("&#8288;"));
  EXPECT_TRUE(
      legend.contains(QStringLiteral("<b><span style=\"white-space:nowrap\">Breaker</span></b>")));
  EXPECT_TRUE(legend.contains(palette::kProbing.name())) << "half-open";
  EXPECT_TRUE(legend.contains(QStringLiteral("half-open")));
  EXPECT_TRUE(legend.contains(QStringLiteral("cached")));
}

// Narrow, the legend breaks between its items only: each line starts with a lane's title or a
// state's colour, never inside a name ("7 of 8 / pods", "price- / check-v2", issue #33).
TEST(LanesViewLegend, BreaksBetweenItemsOnly) {
  const Incident orders = loadIncident(test::resourcePath("incidents/inc-2026-0814-orders.yaml"));
  LanesView view;
  view.resize(1000, 600);
  view.setIncident(orders);
  const Result deployed = simulate(orders, orders.deployed);
  view.setResults(deployed, nullptr);
  QStringList starts;
  for (const LanesView::LegendLane& lane : view.legend()) starts << lane.title;
  QTextDocument legend;
  legend.setHtml(view.legendText());
  for (const int width : {200, 260, 330, 420}) {
    legend.setTextWidth(width);
    legend.size();  // lays it out
    for (QTextBlock block = legend.begin(); block.isValid(); block = block.next()) {
      const QTextLayout* layout = block.layout();
      for (int i = 1; i < layout->lineCount(); ++i) {
        QString line = block.text().mid(layout->lineAt(i).textStart()).trimmed();
        line.replace(QChar::Nbsp, QLatin1Char(' ')).remove(QChar(0x2060));
        const bool at_an_item =
            line.startsWith(QChar(0x25A0)) ||
            std::any_of(starts.begin(), starts.end(),
                        [&line](const QString& title) { return line.startsWith(title); });
        EXPECT_TRUE(at_an_item) << width << " px: a line starts with \""
                                << line.left(20).toStdString() << "\"";
      }
    }
  }
}

TEST_F(LanesViewTest, TheReadoutDoesNotResizeTheLanesWhenItAppears) {
  const QRect before = view.rowRect("breaker", RowKind::replayed);
  view.setCursorAt(0, 10);
  view.setCursorAt(1, 40);
  QApplication::processEvents();
  view.replotNow();
  EXPECT_EQ(view.rowRect("breaker", RowKind::replayed), before);
}

// The cursor readout reads time as the axis does (the second walkthrough of issue #33: seconds
// in the readout under a clock axis).
TEST(TimeAxis, TheReadoutReadsTimeAsTheAxisDoes) {
  // 09:46:30.250 UTC on 2026-09-08.
  const Micros start = (Micros{1788860790} * 1000 + 250) * 1000;
  struct Case {
    std::optional<Micros> clock;
    double seconds;
    int decimals;
    const char* text;
  };
  const Case cases[] = {
      {std::nullopt, 12.3456, 3, "12.346 s"},
      {std::nullopt, 12.3456, 2, "12.35 s"},
      {std::nullopt, 0, 0, "0 s"},
      {start, 0, 3, "09:46:30.250"},
      {start, 0, 2, "09:46:30.25"},
      {start, 2.65, 3, "09:46:32.900"},
      {start, 29.7494, 3, "09:46:59.999"},
      {start, 29.7494, 2, "09:47:00.00"},  // rounded once, into the next minute
      {start, 29.74, 0, "09:47:00"},
      {start, -10.25, 1, "09:46:20.0"},  // before t = 0 (a recording's lead-in)
      {start, 14 * 3600 + 13 * 60 + 29.75, 3, "00:00:00.000"},  // midnight: the next day's
  };
  for (const Case& c : cases) {
    EXPECT_EQ(readoutTimeText(c.clock, c.seconds, c.decimals), QString::fromUtf8(c.text))
        << c.seconds << " at " << c.decimals;
  }
}

TEST(TimeAxis, WallClockTicksFallOnRoundTimesOfDay) {
  // 09:46:30.250 UTC on 2026-09-08.
  const Micros start = (Micros{1788860790} * 1000 + 250) * 1000;
  const double origin = clockTickOrigin(start);
  // t = origin is midnight: a tick every 15 min from it lands on :00, :15, ...
  EXPECT_EQ(clockTickLabel(start, origin + 36 * 900, 900), QStringLiteral("09:00:00"));
  EXPECT_EQ(clockTickLabel(start, 0, 1), QStringLiteral("09:46:30"));
  EXPECT_EQ(clockTickLabel(start, 0, 0.25), QStringLiteral("09:46:30.25"));
  EXPECT_EQ(clockTickLabel(start, 0.25, 0.5), QStringLiteral("09:46:30.5"));
  EXPECT_EQ(clockTickLabel(start, 29.75, 5), QStringLiteral("09:47:00"));
  EXPECT_EQ(timeAxisLabel(start), QStringLiteral("time (UTC)"));
  // Zoomed in to 2 s, the ticks go below a second.
  QVector<double> ticks, sub;
  QVector<QString> labels;
  makeTimeTicker(start)->generate(QCPRange(10, 12), QLocale::c(), 'g', 6, ticks, &sub, &labels);
  ASSERT_GE(ticks.size(), 4);
  EXPECT_LT(ticks[1] - ticks[0], 1.0);
  EXPECT_TRUE(labels[1].contains('.')) << labels[1].toStdString();
  EXPECT_EQ(timeAxisLabel(std::nullopt), QStringLiteral("time (s)"));
}

// Issue #33, item 12: a postmortem that gives the clock time of t = 0 but not its date ("t=0 is
// 09:15:00 UTC") has a clock axis, as an incident with `start:` has.
TEST(TimeAxis, ReadsTheIncidentsStartElseTheTimeOfDayADocumentGave) {
  const Micros start = Micros{1788860790} * kSecond;  // 2026-09-08 09:46:30 UTC
  const Micros quarter_past_nine = (9 * 3600 + 15 * 60) * kSecond;
  struct Case {
    const char* what;
    std::optional<Micros> clock_start, clock_of_day, want;
  };
  const Case cases[] = {
      {"neither: seconds", std::nullopt, std::nullopt, std::nullopt},
      {"start:", start, std::nullopt, start},
      {"a time of day", std::nullopt, quarter_past_nine, quarter_past_nine},
      {"both: start: is the whole timestamp", start, quarter_past_nine, start},
  };
  for (const Case& c : cases) {
    Incident incident;
    incident.clock_start = c.clock_start;
    incident.clock_of_day = c.clock_of_day;
    EXPECT_EQ(axisClock(incident), c.want) << c.what;
  }
  // A time of day alone reads as the clock: t = 0 is 09:15:00.
  EXPECT_EQ(clockTickLabel(quarter_past_nine, 0, 1), QStringLiteral("09:15:00"));
  EXPECT_EQ(clockTickLabel(quarter_past_nine, 45, 15), QStringLiteral("09:15:45"));
}

TEST(LanesViewClock, APostmortemsTimeOfDayGivesAClockAxis) {
  Incident incident = test::incident0908();
  incident.clock_start.reset();
  incident.clock_of_day = (14 * 3600 + 2 * 60) * kSecond;  // "t=0 is 14:02:00"
  const Result deployed = simulate(incident, incident.deployed);
  LanesView view;
  view.resize(1200, 600);
  view.setIncident(incident);
  view.setResults(deployed, nullptr);
  view.show();
  view.replotNow();
  EXPECT_EQ(view.plot()->xAxis->label(), QStringLiteral("time (UTC)"));
  QVector<double> ticks, sub;
  QVector<QString> labels;
  view.plot()->xAxis->ticker()->generate(view.plot()->xAxis->range(), QLocale::c(), 'g', 6, ticks,
                                         &sub, &labels);
  ASSERT_FALSE(labels.isEmpty());
  EXPECT_TRUE(labels.front().startsWith(QStringLiteral("14:0"))) << labels.front().toStdString();
}

TEST(OverviewStrip, DraggingAndClickingKeepTheWindowInsideTheIncident) {
  const OverviewScale scale{0, 100, 10, 200};  // 100 s over pixels 10..210: 2 px a second
  EXPECT_DOUBLE_EQ(scale.toPixel(0), 10);
  EXPECT_DOUBLE_EQ(scale.toPixel(50), 110);
  EXPECT_DOUBLE_EQ(scale.toSeconds(210), 100);
  struct Case {
    const char* what;
    double from, to, dx;
    double want_from, want_to;
  };
  const Case drags[] = {
      {"20 px right is 10 s", 20, 30, 20, 30, 40},
      {"stops at the end", 80, 95, 100, 85, 100},
      {"stops at the start", 5, 15, -40, 0, 10},
      {"a window wider than the incident is the incident", -10, 120, 5, 0, 100},
  };
  for (const auto& c : drags) {
    const auto [from, to] = dragRange(scale, c.from, c.to, c.dx);
    EXPECT_DOUBLE_EQ(from, c.want_from) << c.what;
    EXPECT_DOUBLE_EQ(to, c.want_to) << c.what;
  }
  const auto [from, to] = centreRangeOn(scale, 0, 10, 110);  // click at 50 s
  EXPECT_DOUBLE_EQ(from, 45);
  EXPECT_DOUBLE_EQ(to, 55);
  const auto [edge_from, edge_to] = centreRangeOn(scale, 0, 10, 209);
  EXPECT_DOUBLE_EQ(edge_to, 100);
  EXPECT_DOUBLE_EQ(edge_from, 90);
}

TEST_F(LanesViewTest, TheOverviewStripFollowsAndPansTheLanes) {
  OverviewStrip* strip = view.overview();
  ASSERT_NE(strip, nullptr);
  EXPECT_TRUE(strip->isVisible());
  // Aligned with the lanes' time axis.
  EXPECT_EQ(strip->scale().left, view.plot()->axisRect()->left());
  view.plot()->xAxis->setRange(10, 20);
  EXPECT_EQ(strip->visibleRange(), std::make_pair(10.0, 20.0));
  // A click at 40 s centres the lanes there.
  const int x = static_cast<int>(strip->scale().toPixel(40));
  QTest::mouseClick(strip, Qt::LeftButton, {}, QPoint(x, strip->height() / 2));
  EXPECT_NEAR(view.plot()->xAxis->range().center(), 40, 0.5);
  EXPECT_NEAR(view.plot()->xAxis->range().size(), 10, 1e-9);
}

TEST(LanesViewExport, IsTitledWithALegendAndLightInADarkTheme) {
  const Result deployed = simulate(test::incident0908(), test::incident0908().deployed);
  LanesView view;
  view.resize(1000, 500);
  QPalette dark;
  dark.setColor(QPalette::Window, QColor(0x20, 0x22, 0x26));
  dark.setColor(QPalette::Base, QColor(0x18, 0x1a, 0x1e));
  dark.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
  dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
  view.setPalette(dark);
  view.setIncident(test::incident0908());
  view.setResults(deployed, nullptr);
  view.show();
  view.replotNow();
  QString error;
  const std::optional<QByteArray> png =
      view.renderImage("png", &error, {"INC-0908 · deployed config", {"open interval 20 s"}});
  ASSERT_TRUE(png) << error.toStdString();
  const QImage image = QImage::fromData(*png, "PNG");
  ASSERT_FALSE(image.isNull());
  // Twice the plot's pixels, taller than the plot by the title and the legend.
  EXPECT_EQ(image.width(), view.plot()->width() * 2);
  EXPECT_GT(image.height(), view.plot()->height() * 2 + 80);
  EXPECT_GT(image.pixelColor(4, 4).lightness(), 240) << "light, not the dark theme";
  // Somewhere below the plot: the legend's open swatch in the breaker's red.
  bool red_swatch = false;
  for (int y = (view.plot()->height() + 40) * 2; y < image.height() && !red_swatch; ++y)
    for (int x = 0; x < image.width() && !red_swatch; ++x)
      red_swatch = image.pixelColor(x, y).rgb() == palette::kBad.rgb();
  EXPECT_TRUE(red_swatch);
  // The view is dark again.
  EXPECT_EQ(view.palette().color(QPalette::Base), QColor(0x18, 0x1a, 0x1e));
}

// A header line wider than the image wraps between words: every word is drawn whole and none is
// elided (issue #33: a description in the report's lanes ended "stayed ope…").
TEST(LanesViewExport, LongHeaderLinesWrapAndKeepEveryWord) {
  const Result deployed = simulate(test::incident0908(), test::incident0908().deployed);
  LanesView view;
  view.resize(600, 400);
  view.setIncident(test::incident0908());
  view.setResults(deployed, nullptr);
  view.show();
  view.replotNow();
  const QString description = QStringLiteral(
      "The breaker opened after 3 seconds and checkout kept working on cached prices; it stayed "
      "open for 14 seconds after Pricing was healthy again, which is the one thing to fix, and "
      "the proposed fix watches the health check while open");
  QString error;
  const std::optional<QByteArray> short_header =
      view.renderImage("png", &error, {"INC-0908 · what-if", {"Breaker rules: BreakerLab"}});
  const std::optional<QByteArray> long_header = view.renderImage(
      "png", &error, {"INC-0908 · what-if", {description, "Breaker rules: BreakerLab"}});
  ASSERT_TRUE(short_header && long_header) << error.toStdString();
  // The description takes three lines above the plot, not one cut short: two or more lines
  // taller (the PNG is drawn at twice the view's pixels).
  const int line = QFontMetrics(view.font()).lineSpacing();
  EXPECT_GE(QImage::fromData(*long_header, "PNG").height() -
                QImage::fromData(*short_header, "PNG").height(),
            2 * 2 * line);
  // The SVG keeps the text: each word whole, no ellipsis.
  const std::optional<QByteArray> svg = view.renderImage(
      "svg", &error, {"INC-0908 · what-if", {description, "Breaker rules: BreakerLab"}});
  ASSERT_TRUE(svg) << error.toStdString();
  const QString text = QString::fromUtf8(*svg);
  EXPECT_FALSE(text.contains(QChar(0x2026)));
  for (const QString& word : description.split(' '))
    EXPECT_TRUE(text.contains(word)) << word.toStdString();
}

TEST(LaneColors, BreakerStates) {
  EXPECT_EQ(stateColor("breaker", "closed"), palette::kGood);
  EXPECT_EQ(stateColor("breaker", "open"), palette::kBad);
  EXPECT_EQ(stateColor("breaker", "half-open"), palette::kProbing);
  EXPECT_EQ(stateColor("breaker", kBreakerDisabled), palette::kIdle) << "off is not closed";
}

// All in rotation green, none red, and between them amber turning red as pods go: "7 of 8" and
// "1 of 8" were one colour (issue #33 walkthrough), so a drop from 7 to 1 did not show.
TEST(LaneColors, PodsInRotation) {
  EXPECT_EQ(stateColor("pods", "8 of 8 pods"), palette::kGood);
  EXPECT_EQ(stateColor("pods", "0 of 8 pods"), palette::kBad);
  EXPECT_EQ(stateColor("pods", "1 of 1 pods"), palette::kGood);
  EXPECT_EQ(stateColor("pods", "7 of 8 pods"), palette::blend(palette::kWarn, palette::kBad, 0.1));
  // Every count its own colour, redder with fewer pods, none of them red.
  int previous_green = 256;
  for (int in = 7; in >= 1; --in) {
    const QColor c = stateColor("pods", std::to_string(in) + " of 8 pods");
    EXPECT_LT(c.green(), previous_green) << in << " of 8";
    EXPECT_NE(c, palette::kBad) << in << " of 8";
    EXPECT_NE(c, palette::kGood) << in << " of 8";
    previous_green = c.green();
  }
}

// A dependency slowing and one timing out are two colours (issue #33 walkthrough: 12 Sep's
// "slowing" then "timing out" read as one stretch); each family keeps its meaning.
TEST(LaneColors, DependencyStatesReadAsAnEngineerWould) {
  const struct {
    const char* state;
    QColor color;
  } cases[] = {
      {"healthy", palette::kGood},
      {"recovered", palette::kGood},
      {"slowing", palette::kWarn},
      {"degraded", palette::kWarn},
      {"warming pool", palette::kWarn},
      {"timing out", palette::kSevere},
      {"requests timed out", palette::kSevere},
      {"connection refused", palette::kBad},
      {"down", palette::kBad},
  };
  for (const auto& c : cases) EXPECT_EQ(stateColor("dependency", c.state), c.color) << c.state;
  EXPECT_NE(palette::kSevere, palette::kWarn);
  EXPECT_NE(palette::kSevere, palette::kBad);
}

// The fleet's lane (FleetBreakers::shareLane): one colour and one legend entry per kind of
// state, whatever the counts.
TEST(LaneColors, BreakersByPod) {
  const struct {
    const char* state;
    QColor color;
    std::string_view legend;
  } cases[] = {
      {"closed", palette::kGood, "closed"},
      {"all open", palette::kBad, "all open"},
      {"1 of 40 open", palette::kWarn, "some open"},
      {"39 of 40 open", palette::kWarn, "some open"},
      {"3 of 1000 half-open", palette::kProbing, "some half-open"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(stateColor("fleet", c.state), c.color) << c.state;
    EXPECT_EQ(legendName("fleet", c.state), c.legend) << c.state;
  }
  // Other lanes keep their states' own names.
  EXPECT_EQ(legendName("pods", "7 of 8 pods"), "some ejected");
  EXPECT_EQ(legendName("pods", "1 of 8 pods"), "some ejected");
  EXPECT_EQ(legendName("pods", "8 of 8 pods"), "8 of 8 pods");
  EXPECT_EQ(legendName("pods", "0 of 8 pods"), "0 of 8 pods");
  EXPECT_EQ(legendName("breaker", "half-open"), "half-open");
}

}  // namespace
}  // namespace breakerlab::views

// ---- The fleet: a breaker per pod, its row expanded into a row per pod ----

namespace breakerlab::views {
namespace {

Lane spans(const char* name,
           std::initializer_list<std::tuple<std::string_view, double, double>> list) {
  Lane lane{name, {}};
  for (const auto& [state, from, to] : list) lane.append(state, fromSeconds(from), fromSeconds(to));
  return lane;
}

// A hand-made fleet of `n` pods over 0-60 s: pod k opens at 10 + k % 5 s for 10 + k % 7 s, is
// half-open 1 s and closes; pod 7 opens again at 40 s; pods from 31 on join at 20 s (a
// scale-out) and open at 21 s. The fleet is open from 10 s to 45 s.
Result fleetOf(std::size_t n) {
  Result r;
  r.breaker = spans("breaker", {{"closed", 0, 10},
                                {"open", 10, 28},
                                {"closed", 28, 40},
                                {"open", 40, 45},
                                {"closed", 45, 60}});
  r.dependency = spans("dependency", {{"healthy", 0, 8}, {"refusing", 8, 30}, {"healthy", 30, 60}});
  r.checkout = spans("checkout", {{"fresh", 0, 10}, {"cached", 10, 28}, {"fresh", 28, 60}});
  for (std::size_t k = 0; k < n; ++k) {
    const bool late = k >= 30;
    const double open = late ? 21 : 10 + static_cast<double>(k % 5);
    const double shut = open + (late ? 5 : 10) + static_cast<double>(k % 7);
    Lane pod{"pod " + std::to_string(k + 1), {}};
    if (late) pod.append(kPodOutOfService, 0, 20 * kSecond);
    pod.append("closed", late ? 20 * kSecond : 0, fromSeconds(open));
    pod.append("open", fromSeconds(open), fromSeconds(shut));
    pod.append("half-open", fromSeconds(shut), fromSeconds(shut + 1));
    if (k == 6) {
      pod.append("closed", fromSeconds(shut + 1), 40 * kSecond);
      pod.append("open", 40 * kSecond, 45 * kSecond);
    }
    pod.append("closed", fromSeconds(k == 6 ? 45 : shut + 1), 60 * kSecond);
    r.pod_breakers.push_back(std::move(pod));
  }
  const std::string some = "3 of " + std::to_string(n) + " open";
  r.fleet = spans("fleet", {{"closed", 0, 10},
                            {some, 10, 14},
                            {"all open", 14, 20},
                            {some, 20, 45},
                            {"closed", 45, 60}});
  return r;
}

// The 8 Sep incident with recorded lanes for its first `n` pods: pod k recorded open from 11 s
// to 31 s.
Incident withRecordedPods(std::size_t n) {
  Incident incident = test::incident0908();
  for (std::size_t k = 0; k < n; ++k)
    incident.recorded.pod_breakers.push_back(
        spans(("10.0.0." + std::to_string(k + 1) + ":8080").c_str(),
              {{"closed", 0, 11}, {"open", 11, 31}, {"closed", 31, 60}}));
  return incident;
}

struct FleetLanesTest : ::testing::Test {
  explicit FleetLanesTest(std::size_t pods = 40)
      : incident(withRecordedPods(40)), fleet(fleetOf(pods)) {
    view.resize(1200, 700);
    view.setIncident(incident);
    view.setResults(fleet, nullptr);
    view.show();
    view.replotNow();
  }
  QRect fleetRow() const { return view.rowRect("fleet", RowKind::replayed); }
  QScrollBar* scrollBar() const { return view.plot()->findChild<QScrollBar*>(); }
  void wheel(int degrees_eighths, Qt::KeyboardModifiers modifiers = {}) {
    const QRect pod = view.podRowRect(view.firstPodShown(), RowKind::replayed);
    const QPointF at = QPointF(pod.center() - view.plot()->pos());
    QWheelEvent event(at, view.plot()->mapToGlobal(at), QPoint(), QPoint(0, degrees_eighths),
                      Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view.plot(), &event);
    view.replotNow();
  }
  std::size_t plottableRows() const {
    return qobject_cast<LanesPlottable*>(view.plot()->plottable(0))->rows().size();
  }
  Incident incident;
  Result fleet;
  LanesView view;
};

TEST_F(FleetLanesTest, TheFleetsRowIsUnderTheBreakersCollapsedWithADisclosureArrow) {
  ASSERT_FALSE(fleetRow().isEmpty());
  EXPECT_GT(fleetRow().top(), view.rowRect("breaker", RowKind::replayed).bottom());
  EXPECT_LT(fleetRow().bottom(), view.rowRect("dependency", RowKind::replayed).top());
  EXPECT_TRUE(view.rowTitles().contains(QStringLiteral("\u25B8 Breakers by pod")));
  EXPECT_FALSE(view.podsExpanded());
  EXPECT_EQ(view.podRowsShown(), 0u);
  EXPECT_TRUE(view.podRowRect(0, RowKind::replayed).isEmpty());
  EXPECT_FALSE(scrollBar()->isVisible());
}

TEST_F(FleetLanesTest, KeyPExpandsTheFleetIntoARowPerPodUnderItsRowAndCollapsesIt) {
  const QRect dependency_before = view.rowRect("dependency", RowKind::replayed);
  QSignalSpy toggled(&view, &LanesView::podsExpandedChanged);
  QTest::keyClick(view.plot(), Qt::Key_P);
  view.replotNow();
  ASSERT_TRUE(view.podsExpanded());
  EXPECT_EQ(toggled.count(), 1);
  EXPECT_TRUE(view.rowTitles().contains(QStringLiteral("\u25BE Breakers by pod")));
  const std::size_t shown = view.podRowsShown();
  EXPECT_GE(shown, 5u) << "700 px has room for a few pods";
  EXPECT_LT(shown, 40u) << "not for all 40: they scroll";
  // Each pod: its recorded row, then its replayed row, under the fleet's and over the
  // dependency's, none overlapping; the rest of the lanes keep readable rows.
  int above = fleetRow().bottom();
  for (std::size_t pod = 0; pod < shown; ++pod) {
    const QRect recorded = view.podRowRect(pod, RowKind::recorded);
    const QRect replayed = view.podRowRect(pod, RowKind::replayed);
    ASSERT_FALSE(recorded.isEmpty()) << pod;
    ASSERT_FALSE(replayed.isEmpty()) << pod;
    EXPECT_GT(recorded.top(), above) << pod;
    EXPECT_GT(replayed.top(), recorded.bottom()) << pod;
    EXPECT_GE(replayed.height(), 10) << pod;
    above = replayed.bottom();
  }
  EXPECT_TRUE(view.podRowRect(shown, RowKind::replayed).isEmpty()) << "off screen: not built";
  EXPECT_LT(above, view.rowRect("dependency", RowKind::replayed).top());
  EXPECT_GE(view.rowRect("breaker", RowKind::replayed).height(), 12);
  EXPECT_TRUE(scrollBar()->isVisible());
  EXPECT_EQ(scrollBar()->maximum(), static_cast<int>(40 - shown));

  QTest::keyClick(view.plot(), Qt::Key_P);
  view.replotNow();
  EXPECT_FALSE(view.podsExpanded());
  EXPECT_EQ(toggled.count(), 2);
  EXPECT_EQ(view.rowRect("dependency", RowKind::replayed), dependency_before);
  EXPECT_FALSE(scrollBar()->isVisible());
  // Ctrl+P is the window's (Export Report), not the lanes'.
  QTest::keyClick(view.plot(), Qt::Key_P, Qt::ControlModifier);
  EXPECT_FALSE(view.podsExpanded());
}

TEST_F(FleetLanesTest, AClickOnTheFleetsTitleTogglesIt) {
  auto* plot = view.plot();
  const QPoint title(8, fleetRow().center().y() - plot->pos().y());
  ASSERT_LT(title.x(), plot->axisRect()->left());
  QTest::mouseClick(plot, Qt::LeftButton, {}, title);
  EXPECT_TRUE(view.podsExpanded());
  view.replotNow();
  QTest::mouseClick(plot, Qt::LeftButton, {}, QPoint(8, fleetRow().center().y() - plot->pos().y()));
  EXPECT_FALSE(view.podsExpanded());
}

TEST_F(FleetLanesTest, AGrabOfTheExpandedFleetShowsEachPodsStatesRecordedAbove) {
  view.setPodsExpanded(true);
  view.replotNow();
  const QImage image = view.grab().toImage();
  // BREAKERLAB_LANES_GRAB=file.png keeps the grab to look at (recorded pod rows have no
  // bundled incident yet).
  if (const QString keep = qEnvironmentVariable("BREAKERLAB_LANES_GRAB"); !keep.isEmpty())
    image.save(keep);
  auto* plot = view.plot();
  auto at = [&](const QRect& row, double seconds) {  // below a state's name
    const int x = static_cast<int>(plot->xAxis->coordToPixel(seconds)) + plot->pos().x();
    return image.pixelColor(x, row.bottom() - 1).rgb();
  };
  const QRect pod1 = view.podRowRect(0, RowKind::replayed);
  EXPECT_EQ(at(pod1, 5), palette::kGood.rgb());
  EXPECT_EQ(at(pod1, 15), palette::kBad.rgb());
  EXPECT_EQ(at(pod1, 20.5), palette::kProbing.rgb());
  const QRect recorded1 = view.podRowRect(0, RowKind::recorded);
  EXPECT_EQ(at(recorded1, 5), palette::kGood.rgb());
  EXPECT_EQ(at(recorded1, 30), palette::kBad.rgb()) << "recorded open to 31 s";
  EXPECT_EQ(at(pod1, 30), palette::kGood.rgb()) << "replayed closed again at 21 s";
  // A pod that joins at 20 s (pod 31) is idle grey before.
  view.scrollPodsTo(30);
  view.replotNow();
  const QImage scrolled = view.grab().toImage();
  const QRect pod31 = view.podRowRect(30, RowKind::replayed);
  ASSERT_FALSE(pod31.isEmpty());
  const int x = static_cast<int>(plot->xAxis->coordToPixel(5)) + plot->pos().x();
  EXPECT_EQ(scrolled.pixelColor(x, pod31.bottom() - 1).rgb(), palette::kIdle.rgb());
  EXPECT_TRUE(view.legendText().contains(QStringLiteral("Each pod")));
  EXPECT_TRUE(view.legendText().contains(QStringLiteral("no pod")));
}

TEST_F(FleetLanesTest, TheFleetsBracketAndReopenedPodsAreDrawn) {
  view.setPodsExpanded(true);
  view.replotNow();
  const auto brackets = bracketTexts(view);
  EXPECT_TRUE(std::any_of(brackets.begin(), brackets.end(), [](const std::string& b) {
    return b.starts_with("pod 1 ") && b.find("→") != std::string::npos;
  })) << ::testing::PrintToString(brackets);
  const auto labels = allLabels(view);
  EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const auto& l) {
    return l.first == QStringLiteral("pod 7 reopened");
  }));
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      EXPECT_FALSE(labels[i].second.intersects(labels[j].second))
          << labels[i].first.toStdString() << " overlaps " << labels[j].first.toStdString();
}

TEST_F(FleetLanesTest, WithoutABreakerPerPodThereIsNothingToExpandAndTheSettingStays) {
  view.setPodsExpanded(true);
  Result one = fleet;
  one.pod_breakers.clear();
  one.fleet = {};
  view.setResults(one, nullptr);
  view.replotNow();
  EXPECT_FALSE(view.hasPods());
  EXPECT_TRUE(view.rowRect("fleet", RowKind::replayed).isEmpty());
  EXPECT_EQ(view.podRowsShown(), 0u);
  EXPECT_FALSE(scrollBar()->isVisible());
  view.setResults(fleet, nullptr);
  view.replotNow();
  EXPECT_GT(view.podRowsShown(), 0u) << "expanded again with the next per-pod run";
}

struct ThousandPodsTest : FleetLanesTest {
  ThousandPodsTest() : FleetLanesTest(1000) {}
};

TEST_F(ThousandPodsTest, OnlyThePodsOnScreenAreBuiltAndTheWheelScrollsThem) {
  const std::size_t collapsed = plottableRows();
  view.setPodsExpanded(true);
  view.replotNow();
  const std::size_t shown = view.podRowsShown();
  ASSERT_GT(shown, 0u);
  EXPECT_EQ(plottableRows(), collapsed + 2 * shown) << "a recorded and a replayed row per pod";
  EXPECT_EQ(scrollBar()->maximum(), static_cast<int>(1000 - shown));

  const QCPRange time = view.plot()->xAxis->range();
  wheel(-120);  // one notch down: three pods
  EXPECT_EQ(view.firstPodShown(), 3u);
  EXPECT_EQ(scrollBar()->value(), 3);
  EXPECT_FALSE(view.podRowRect(3, RowKind::replayed).isEmpty());
  EXPECT_TRUE(view.podRowRect(2, RowKind::replayed).isEmpty());
  EXPECT_EQ(view.plot()->xAxis->range(), time) << "the wheel over the pods does not zoom";
  wheel(-120, Qt::ControlModifier);
  EXPECT_EQ(view.firstPodShown(), 3u) << "Ctrl+wheel zooms time";
  wheel(120);
  EXPECT_EQ(view.firstPodShown(), 0u);

  // The scroll bar and the end of the fleet.
  scrollBar()->setValue(500);
  EXPECT_EQ(view.firstPodShown(), 500u);
  view.scrollPodsTo(5000);
  view.replotNow();
  EXPECT_EQ(view.firstPodShown(), 1000 - shown);
  EXPECT_FALSE(view.podRowRect(999, RowKind::replayed).isEmpty());
  EXPECT_EQ(plottableRows(), collapsed + 2 * shown) << "still only the rows on screen";
  EXPECT_TRUE(view.rowTitles().contains(QStringLiteral("pod 1000")));
  EXPECT_FALSE(view.rowTitles().contains(QStringLiteral("pod 1")));
}

}  // namespace
}  // namespace breakerlab::views
