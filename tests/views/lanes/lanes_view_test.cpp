#include <gtest/gtest.h>

#include <qcustomplot.h>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QImage>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/views/lane_colors.h"
#include "breakerlab/views/lanes_view.h"
#include "lanes/label_layout.h"
#include "lanes/lane_fold.h"
#include "lanes/overview_strip.h"
#include "lanes/time_axis.h"
#include "test_incident.h"

namespace breakerlab::views {
namespace {

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

TEST_F(LanesViewTest, ReplayedBreakerRowHasTheSixRecordedSegments) {
  const auto replayed = view.rowSpans("breaker", RowKind::replayed);
  const auto recorded = view.rowSpans("breaker", RowKind::recorded);
  ASSERT_EQ(replayed.size(), 6u);
  ASSERT_EQ(recorded.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_NEAR(replayed[i].first, recorded[i].first, 0.5) << i;
    EXPECT_NEAR(replayed[i].second, recorded[i].second, 0.5) << i;
  }
  EXPECT_TRUE(view.rowSpans("breaker", RowKind::baseline).empty()) << "no ghost when untuned";
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
  EXPECT_EQ(pixelAt(20).rgb(), palette::kBad.rgb());
  EXPECT_EQ(pixelAt(5).rgb(), palette::kGood.rgb());
  EXPECT_EQ(pixelAt(32).rgb(), palette::kProbing.rgb());
  const QRect checkout = view.rowRect("checkout", RowKind::replayed);
  const int x = static_cast<int>(plot->xAxis->coordToPixel(30)) + plot->pos().x();
  EXPECT_EQ(image.pixelColor(x, checkout.bottom() - 2).rgb(), palette::kCached.rgb());
}

TEST_F(LanesViewTest, TunedConfigShowsTheDeployedGhost) {
  Config early = test::incident0908().deployed;
  early.breaker.early_probe = true;
  const Result tuned = simulate(test::incident0908(), early);
  view.setResults(tuned, &deployed);
  EXPECT_EQ(view.rowSpans("breaker", RowKind::baseline).size(), 6u);
  EXPECT_NEAR(view.rowSpans("breaker", RowKind::replayed).back().first, 43.0, 1.0);
}

TEST_F(LanesViewTest, CursorsSnapToStateChangesAndMeasureTheInterval) {
  const double trip = toSeconds(deployed.breaker.intervals[1].from);
  const double reopen = toSeconds(deployed.breaker.intervals[3].from);
  view.setCursorAt(0, trip);
  view.setCursorAt(1, reopen);
  const QString text = view.readoutText();
  EXPECT_TRUE(text.contains(QString("Δt = %1 s").arg(reopen - trip, 0, 'f', 3)))
      << text.toStdString();
  EXPECT_TRUE(view.readoutAt(20).contains("Breaker open")) << view.readoutAt(20).toStdString();
  EXPECT_TRUE(view.readoutAt(20).contains("Pricing connection refused"));

  // Key 1 with the mouse 3 px from the trip edge snaps onto it.
  auto* plot = view.plot();
  const int x = static_cast<int>(plot->xAxis->coordToPixel(trip)) + 3;
  QTest::mouseMove(plot, QPoint(x, plot->axisRect()->center().y()));
  QTest::keyClick(plot, Qt::Key_1);
  ASSERT_TRUE(view.cursorAt(0).has_value());
  EXPECT_DOUBLE_EQ(*view.cursorAt(0), trip);
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
  EXPECT_EQ(pixelAt(15), palette::kWarn.rgb()) << "6 of 8";
  EXPECT_EQ(pixelAt(22.5), palette::kBad.rgb()) << "0 of 8";
  EXPECT_EQ(pixelAt(40), palette::kGood.rgb());
  EXPECT_EQ(view.rowMarks("pods", RowKind::replayed).size(), 16u) << "a tick per event";
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
  EXPECT_EQ(view.rowMarks("pods", RowKind::replayed).size(), 60u);

  const auto labels = eventLabels(view);
  int pod_labels = 0;
  for (const auto& [text, rect] : labels) pod_labels += text.startsWith("pod") ? 1 : 0;
  EXPECT_GE(pod_labels, 1);
  EXPECT_LE(pod_labels, 3) << "nearby events share a label";
  EXPECT_TRUE(std::any_of(labels.begin(), labels.end(),
                          [](const auto& l) { return l.first == "pods: 30 ejected, 30 back"; }));
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
  const auto brackets = view.bracketLabels();
  EXPECT_LT(brackets.size(), static_cast<std::size_t>(opens) + 1) << "not every bracket fits";
  EXPECT_TRUE(std::any_of(brackets.begin(), brackets.end(),
                          [](const std::string& b) { return b.find("to trip") != b.npos; }));
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
  const Folded fold = view.rowFold("breaker", RowKind::replayed);
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
  EXPECT_TRUE(view.rowNames("breaker", RowKind::replayed).empty()) << "no room for a name";

  // The transitions are one counted cluster, not ten thousand dashed lines.
  EXPECT_EQ(dashedMarkers(view), 0);
  const auto labels = allLabels(view);
  EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const auto& l) {
    return l.first.startsWith(QStringLiteral("5,000 trips, 4,999 closes")) ||
           l.first.startsWith(QStringLiteral("5000 trips, 4999 closes"));
  })) << "a count of the trips";
  for (std::size_t i = 0; i < labels.size(); ++i)
    for (std::size_t j = i + 1; j < labels.size(); ++j)
      EXPECT_FALSE(labels[i].second.intersects(labels[j].second))
          << labels[i].first.toStdString() << " overlaps " << labels[j].first.toStdString();

  // Zoomed in to 60 ms, six transitions: drawn one by one, with names in the wide segments.
  view.plot()->xAxis->setRange(30, 30.06);
  view.replotNow();
  EXPECT_GE(dashedMarkers(view), 5);
  const Folded zoomed = view.rowFold("breaker", RowKind::replayed);
  EXPECT_TRUE(std::none_of(zoomed.marks.begin(), zoomed.marks.end(),
                           [](const FoldedMark& m) { return m.mixed(); }));
  const auto names = view.rowNames("breaker", RowKind::replayed);
  EXPECT_GE(names.size(), 4u);
  for (const auto& [name, rect] : names) EXPECT_TRUE(name == "open" || name == "closed");
}

TEST_F(LanesViewTest, StateNamesAreWrittenInsideSegmentsWideEnoughForThem) {
  const auto names = view.rowNames("breaker", RowKind::replayed);
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
  EXPECT_TRUE(view.rowNames("breaker", RowKind::baseline).empty());
}

TEST_F(LanesViewTest, BracketsOffScreenAreHiddenAndLabelsFollowTheVisiblePart) {
  // Zoomed into 40-60 s: the 2.9 s time to trip (before 11 s) is off screen.
  view.plot()->xAxis->setRange(40, 60);
  view.replotNow();
  const auto labels = view.bracketLabels();
  EXPECT_TRUE(std::none_of(labels.begin(), labels.end(), [](const std::string& l) {
    return l.find("to trip") != std::string::npos;
  })) << ::testing::PrintToString(labels);
}

TEST_F(LanesViewTest, TheLegendNamesEveryLanesStatesInTheirColours) {
  const QString legend = view.legendText();
  EXPECT_TRUE(legend.contains(QStringLiteral("<b>Breaker</b>")));
  EXPECT_TRUE(legend.contains(palette::kProbing.name())) << "half-open";
  EXPECT_TRUE(legend.contains(QStringLiteral("half-open")));
  EXPECT_TRUE(legend.contains(QStringLiteral("cached")));
}

TEST_F(LanesViewTest, TheReadoutDoesNotResizeTheLanesWhenItAppears) {
  const QRect before = view.rowRect("breaker", RowKind::replayed);
  view.setCursorAt(0, 10);
  view.setCursorAt(1, 40);
  QApplication::processEvents();
  view.replotNow();
  EXPECT_EQ(view.rowRect("breaker", RowKind::replayed), before);
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

TEST(LaneColors, BreakerStates) {
  EXPECT_EQ(stateColor("breaker", "closed"), palette::kGood);
  EXPECT_EQ(stateColor("breaker", "open"), palette::kBad);
  EXPECT_EQ(stateColor("breaker", "half-open"), palette::kProbing);
  EXPECT_EQ(stateColor("breaker", kBreakerDisabled), palette::kIdle) << "off is not closed";
}

TEST(LaneColors, PodsInRotation) {
  EXPECT_EQ(stateColor("pods", "8 of 8 pods"), palette::kGood);
  EXPECT_EQ(stateColor("pods", "1 of 8 pods"), palette::kWarn);
  EXPECT_EQ(stateColor("pods", "7 of 8 pods"), palette::kWarn);
  EXPECT_EQ(stateColor("pods", "0 of 8 pods"), palette::kBad);
  EXPECT_EQ(stateColor("pods", "1 of 1 pods"), palette::kGood);
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
  EXPECT_EQ(legendName("pods", "7 of 8 pods"), "7 of 8 pods");
  EXPECT_EQ(legendName("breaker", "half-open"), "half-open");
}

}  // namespace
}  // namespace breakerlab::views
