// Where the per-second charts put their legends: whole entries, beside the plot area when they fit
// there, in rows over it otherwise (issue #33: "fail…", "cac…", "wor…").
#include <gtest/gtest.h>

#include "charts/per_second_chart.h"

namespace breakerlab::views {
namespace {

struct LegendCase {
  const char* what;
  QRectF column;  // the room left of the y axis
  QList<double> widths;
  Qt::Alignment alignment;
  QRectF legend;
  QRectF plot_area;
};

TEST(PerSecondChart, TheLegendGoesWhereItsEntriesAreWhole) {
  const QRectF plot(140, 6, 700, 80);  // the lanes' time axis, 80 px tall
  const QRectF margin(2, 6, 76, 80);
  const LegendCase cases[] = {
      {"the widest entry fits the column", margin, {50, 60, 48}, Qt::AlignLeft, margin, plot},
      {"'cached' is a pixel too wide: a row over the plot",
       margin,
       {50, 77, 48},
       Qt::AlignTop,
       QRectF(140, 6, 700, 20),
       QRectF(140, 26, 700, 60)},
      {"five entries are taller than the column",
       margin,
       {40, 40, 40, 40, 40},
       Qt::AlignTop,
       QRectF(140, 6, 700, 20),
       QRectF(140, 26, 700, 60)},
      {"no column (not under the lanes)",
       QRectF(),
       {50, 60},
       Qt::AlignTop,
       QRectF(140, 6, 700, 20),
       QRectF(140, 26, 700, 60)},
      {"no legend", QRectF(), {}, Qt::AlignLeft, QRectF(), plot},
  };
  for (const LegendCase& c : cases) {
    const LegendPlace placed = placeLegend(plot, c.column, c.widths, 20);
    EXPECT_EQ(placed.alignment, c.alignment) << c.what;
    EXPECT_EQ(placed.legend, c.legend) << c.what;
    EXPECT_EQ(placed.plot_area, c.plot_area) << c.what;
  }
}

// The legend's margins are room its entries do not get: a 72 px entry fits a 76 px column
// with no margins, not with 2 px a side plus the 2 px more that the second walkthrough's "cac…"
// lacked (the style's 9 px a side were not counted).
TEST(PerSecondChart, TheLegendsMarginsAreRoomItsEntriesDoNotGet) {
  const QRectF plot(140, 6, 700, 80);
  const QRectF column(2, 6, 76, 80);
  EXPECT_EQ(placeLegend(plot, column, {50, 72}, 20, QMarginsF(2, 2, 2, 2)).alignment,
            Qt::AlignLeft);
  EXPECT_EQ(placeLegend(plot, column, {50, 73}, 20, QMarginsF(2, 2, 2, 2)).alignment, Qt::AlignTop);
  EXPECT_EQ(placeLegend(plot, column, {50, 60}, 20, QMarginsF(9, 9, 9, 9)).alignment, Qt::AlignTop)
      << "60 + 18 px";
  // Four 20 px entries fill the 80 px column with no margins, not with any.
  EXPECT_EQ(placeLegend(plot, column, {40, 40, 40, 40}, 20).alignment, Qt::AlignLeft);
  EXPECT_EQ(placeLegend(plot, column, {40, 40, 40, 40}, 20, QMarginsF(0, 1, 0, 0)).alignment,
            Qt::AlignTop);
  // In rows: the margins narrow each row and add to the legend's height.
  const LegendPlace rows =
      placeLegend(QRectF(0, 0, 300, 200), QRectF(), {150, 150}, 20, QMarginsF(2, 3, 2, 3));
  EXPECT_EQ(rows.legend.height(), 2 * 20 + 6) << "300 - 4 px holds one 150 px entry a row";
  EXPECT_EQ(rows.plot_area.top(), 46);
}

// Rows fill as Qt Charts fills them: an entry that would end past the right edge starts a row.
TEST(PerSecondChart, TheLegendsRowsHoldEveryEntryWhole) {
  struct RowsCase {
    double width;
    QList<double> entries;
    int rows;
  };
  const RowsCase cases[] = {
      {700, {110, 160, 130, 120, 150}, 1},  // the resource chart at 1920 px
      {300, {110, 160, 130, 120, 150}, 3},  // 110+160 | 130+120 | 150
      {300, {300, 300}, 2},                 // exactly as wide: one a row
      {100, {160}, 1},                      // wider than the row: alone, as wide as it gets
  };
  for (const RowsCase& c : cases) {
    const LegendPlace placed = placeLegend(QRectF(0, 0, c.width, 200), QRectF(), c.entries, 20);
    EXPECT_EQ(placed.legend.height(), 20 * c.rows) << c.width << " " << c.entries.size();
    EXPECT_EQ(placed.plot_area.top(), 20 * c.rows);
  }
}

}  // namespace
}  // namespace breakerlab::views
