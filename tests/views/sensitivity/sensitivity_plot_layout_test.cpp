// The sensitivity plot's legend, offscreen, at the sizes the dock has in 1024x700 and 1600x1000
// windows and at a small and a large one: inside the plot, and every line of it drawn whole (as
// many dark pixels in the plot as the item draws by itself, unclipped).
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <string>

#include "breakerlab/core/tuning/sweep.h"
#include "breakerlab/views/sensitivity_plot.h"
#include "test_incident.h"

namespace breakerlab::views {
namespace {

// 8 Sep with the early probe on: the open interval across (and the health poll up), as the
// dock's default map.
SensitivityMap pricingMap(std::size_t knob_count) {
  Incident incident = test::incident0908();
  incident.deployed.breaker.early_probe = true;
  std::vector<KnobRange> knobs{{findKnob("breaker.open.interval"), 2, 60, true},
                               {findKnob("breaker.open.early_probe.poll"), 0.5, 20, true}};
  knobs.resize(knob_count);
  const std::vector<const MetricInfo*> metrics{findMetric("cached_while_healthy_s")};
  const TuneCase c{&incident, incident.goals, incident.deployed};
  const Evaluator evaluator({c}, metrics);
  const std::vector<std::size_t> points(knob_count, knob_count == 1 ? 12 : 6);
  const SweepResult result = sweep(evaluator, knobs, points);
  return sensitivityMapOf(result, knobs, metrics, incident.goals);
}

// A legend item's draw and antialiasing hint are protected: named through a class that makes
// them public, to draw an item by itself without the clip the plot draws it under.
struct LegendItemAccess : QCPAbstractLegendItem {
  using QCPAbstractLegendItem::applyDefaultAntialiasingHint;
  using QCPAbstractLegendItem::draw;
};

bool dark(QRgb c) {
  return qGray(c) < 128;
}

// Every dark pixel `item` draws by itself (on white, with the painter set up as the plot's
// layers set it up) must be drawn in `plotted` too; a clipped one is the plot's white.
void expectWhole(const QImage& plotted, QCPAbstractLegendItem* item, const std::string& what) {
  QImage alone(plotted.size(), QImage::Format_ARGB32_Premultiplied);
  alone.fill(Qt::white);
  {
    QCPPainter painter(&alone);
    (item->*(&LegendItemAccess::applyDefaultAntialiasingHint))(&painter);
    (item->*(&LegendItemAccess::draw))(&painter);
  }
  const QRect around = item->outerRect().adjusted(-8, -8, 8, 8) & plotted.rect();
  int ink = 0, lost = 0;
  QRect lost_at;
  for (int y = around.top(); y <= around.bottom(); ++y)
    for (int x = around.left(); x <= around.right(); ++x) {
      if (!dark(alone.pixel(x, y))) continue;
      ++ink;
      if (qGray(plotted.pixel(x, y)) > 224) {
        ++lost;
        lost_at |= QRect(x, y, 1, 1);
      }
    }
  const QRect r = item->outerRect();
  EXPECT_GT(ink, 20) << what << ": the item draws its swatch and words";
  EXPECT_EQ(lost, 0) << what << ": the item at y " << r.top() << "-" << r.bottom() << " lost "
                     << lost << " of its " << ink << " dark pixels, on rows " << lost_at.top()
                     << "-" << lost_at.bottom();
}

void expectLegendWhole(SensitivityPlot& plot, QSize size, const std::string& what) {
  plot.resize(size);
  plot.show();
  QCustomPlot* p = plot.plot();
  p->replot();
  QCPLegend* legend = plot.legend();
  ASSERT_NE(legend, nullptr) << what;
  ASSERT_GE(legend->itemCount(), 3) << what;
  EXPECT_EQ(p->viewport(), QRect(QPoint(0, 0), size)) << what;
  EXPECT_TRUE(p->viewport().contains(legend->outerRect()))
      << what << ": the legend's bottom at " << legend->outerRect().bottom();
  // The legend is laid out at the height it asks for, each item at its own.
  EXPECT_GE(legend->outerRect().height(), legend->minimumOuterSizeHint().height()) << what;
  const QImage printed = p->toPixmap(size.width(), size.height(), 1.0).toImage();
  const QImage shown = p->grab().toImage();
  ASSERT_EQ(shown.size(), size) << what;
  for (int i = 0; i < legend->itemCount(); ++i) {
    QCPAbstractLegendItem* item = legend->item(i);
    if (item == nullptr) continue;  // a wrapped legend's empty cells after its last item
    const std::string name = what + ", item " + std::to_string(i);
    EXPECT_TRUE(legend->rect().contains(item->outerRect())) << name;
    EXPECT_GE(item->outerRect().height(), item->minimumOuterSizeHint().height()) << name;
    expectWhole(printed, item, name + " (image)");
    expectWhole(shown, item, name + " (widget)");
  }
}

struct Size {
  QSize size;
  const char* what;
};
// The dock's plot in a 1024x700 window (the legend on two lines), in a 1600x1000 one, the
// smallest the plot allows (three lines), and a wide one (one line, the scale beside).
const Size kSizes[] = {{{373, 386}, "373x386 (a 1024x700 window)"},
                       {{425, 425}, "425x425 (a 1600x1000 window)"},
                       {{240, 240}, "240x240"},
                       {{900, 600}, "900x600"}};

TEST(SensitivityPlotLayout, EveryLineOfAHeatmapsLegendIsWholeAtEverySize) {
  const SensitivityMap map = pricingMap(2);
  for (const Size& s : kSizes) {
    SensitivityPlot plot;
    plot.setMap(map);
    plot.setCurrent({20, 2});
    expectLegendWhole(plot, s.size, std::string("heatmap ") + s.what);
  }
}

TEST(SensitivityPlotLayout, EveryLineOfALinePlotsLegendIsWholeAtEverySize) {
  const SensitivityMap map = pricingMap(1);
  for (const Size& s : kSizes) {
    SensitivityPlot plot;
    plot.setMap(map);
    plot.setCurrent({20});
    expectLegendWhole(plot, s.size, std::string("line ") + s.what);
  }
}

}  // namespace
}  // namespace breakerlab::views
