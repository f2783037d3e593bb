// The cached-text delegate draws a cell's text where and in the colour the stock delegate does,
// and leaves to it what it cannot draw the same way (text wider than the cell is elided).
#include <gtest/gtest.h>

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QImage>
#include <QTreeWidget>
#include <optional>
#include <utility>
#include <vector>

#include "breakerlab/views/lane_colors.h"
#include "metrics/static_text_delegate.h"

namespace breakerlab::views {
namespace {

struct Ink {
  QRect box;  // of the pixels that differ from the cell's background
  bool has(const QColor& colour) const { return colours.contains(colour.rgb()); }
  QSet<QRgb> colours;
};

// Rows: a right-aligned number, a left-aligned label, a red delta, and a label too wide for
// its column.
QTreeWidget* table(bool cached, Qt::LayoutDirection direction = Qt::LeftToRight,
                   const QFont* font = nullptr) {
  auto* tree = new QTreeWidget;
  tree->setLayoutDirection(direction);
  if (font != nullptr) tree->setFont(*font);
  tree->setColumnCount(2);
  tree->setRootIsDecorated(false);
  tree->header()->setSectionResizeMode(QHeaderView::Fixed);
  tree->header()->resizeSection(0, 150);
  tree->header()->resizeSection(1, 150);
  if (cached) tree->setItemDelegate(new StaticTextDelegate(tree));
  const char* texts[][2] = {{"Failed checkouts", "1,802"},
                            {"Cached", "+12.5 %"},
                            {"Mean call", "-3.1 ms"},
                            {"A label much too wide for a column of 150 pixels", "x"}};
  for (const auto& row : texts) {
    auto* item = new QTreeWidgetItem(tree);
    item->setText(0, QString::fromUtf8(row[0]));
    item->setText(1, QString::fromUtf8(row[1]));
    item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
  }
  tree->topLevelItem(2)->setForeground(1, QBrush(palette::kBad));
  tree->resize(320, 200);
  tree->show();
  return tree;
}

Ink inkOf(const QImage& image, const QRect& cell) {
  Ink ink;
  const QRgb background = image.pixel(cell.left() + 1, cell.top() + 1);
  for (int y = cell.top(); y <= cell.bottom(); ++y) {
    for (int x = cell.left(); x <= cell.right(); ++x) {
      const QRgb p = image.pixel(x, y);
      if (p == background) continue;
      ink.box |= QRect(x, y, 1, 1);
      ink.colours.insert(p);
    }
  }
  return ink;
}

TEST(StaticTextDelegate, DrawsEachCellsTextWhereAndAsTheStockDelegateDoes) {
  std::unique_ptr<QTreeWidget> stock(table(false)), cached(table(true));
  const QImage stock_image = stock->viewport()->grab().toImage();
  const QImage cached_image = cached->viewport()->grab().toImage();
  for (int row = 0; row < 4; ++row) {
    for (int column = 0; column < 2; ++column) {
      const QModelIndex index = stock->model()->index(row, column);
      const QRect cell = stock->visualRect(index);
      ASSERT_EQ(cell, cached->visualRect(cached->model()->index(row, column)));
      const Ink a = inkOf(stock_image, cell), b = inkOf(cached_image, cell);
      ASSERT_FALSE(a.box.isEmpty()) << row << "," << column;
      ASSERT_FALSE(b.box.isEmpty()) << row << "," << column;
      // Same place within a pixel or two (the two draw paths position glyphs alike, not
      // necessarily to the pixel).
      EXPECT_LE(std::abs(a.box.left() - b.box.left()), 2) << row << "," << column;
      EXPECT_LE(std::abs(a.box.right() - b.box.right()), 2) << row << "," << column;
      EXPECT_LE(std::abs(a.box.top() - b.box.top()), 2) << row << "," << column;
      EXPECT_LE(std::abs(a.box.bottom() - b.box.bottom()), 2) << row << "," << column;
    }
  }
  const QRect red_cell = cached->visualRect(cached->model()->index(2, 1));
  EXPECT_TRUE(inkOf(cached_image, red_cell).has(palette::kBad)) << "the item's foreground";
  // The too-wide label is elided by the stock path: identical pixels in both tables.
  const QRect wide = stock->visualRect(stock->model()->index(3, 0));
  EXPECT_EQ(stock_image.copy(wide), cached_image.copy(wide));
}

int differingPixels(const QImage& a, const QImage& b, const QRect& cell) {
  int n = 0;
  for (int y = cell.top(); y <= cell.bottom(); ++y)
    for (int x = cell.left(); x <= cell.right(); ++x) n += a.pixel(x, y) != b.pixel(x, y);
  return n;
}

// Pixel for pixel the stock delegate's drawing, left to right and right to left, in the default
// font and in one with leading (QStaticText's height includes it, the stock line does not).
TEST(StaticTextDelegate, PaintsTheSamePixelsAsTheStockDelegate) {
  std::vector<std::pair<Qt::LayoutDirection, std::optional<QFont>>> cases = {
      {Qt::LeftToRight, std::nullopt}, {Qt::RightToLeft, std::nullopt}};
  for (const QString& family : QFontDatabase::families()) {
    QFont font(family, 10);
    if (QFontMetricsF(font).leading() > 0.5) {
      cases.push_back({Qt::LeftToRight, font});
      break;
    }
  }
  for (const auto& [direction, font] : cases) {
    const QFont* f = font ? &*font : nullptr;
    std::unique_ptr<QTreeWidget> stock(table(false, direction, f)),
        cached(table(true, direction, f));
    const QImage a = stock->viewport()->grab().toImage();
    const QImage b = cached->viewport()->grab().toImage();
    for (int row = 0; row < 3; ++row) {
      for (int column = 0; column < 2; ++column) {
        const QRect cell = stock->visualRect(stock->model()->index(row, column));
        EXPECT_EQ(differingPixels(a, b, cell), 0)
            << row << "," << column << (direction == Qt::RightToLeft ? " rtl " : " ltr ")
            << (font ? font->family().toStdString() : "default font");
      }
    }
  }
}

}  // namespace
}  // namespace breakerlab::views
