#include "report_pagination.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QScreen>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <algorithm>
#include <cmath>
#include <memory>

namespace breakerlab::app {

namespace {

// The resolution print() takes a document's own pixels in (qt_defaultDpiX/Y in qfont.cpp):
// the screen's, rounded, 96 under Qt::AA_Use96Dpi, 100 without a screen.
int sourceDpi(bool horizontal) {
  if (QCoreApplication::testAttribute(Qt::AA_Use96Dpi)) return 96;
  const QScreen* screen = QGuiApplication::primaryScreen();
  if (screen == nullptr) return 100;
  return qRound(horizontal ? screen->logicalDotsPerInchX() : screen->logicalDotsPerInchY());
}

// `document` as QTextDocument::print() (Qt 6, qtextdocument.cpp) lays out a document without a
// page size of its own: a clone laid out on the device itself, with 2 cm margins counted in the
// document's pixels (the layout scales them to the device's) and the device's page as its page,
// once a device without margins has the 2 mm ones print() gives it (so the device is changed as
// print() changes it). The clone's blocks are the document's, number for number.
std::unique_ptr<QTextDocument> layOutAsPrinted(const QTextDocument& document,
                                               QPagedPaintDevice& device) {
  const QMarginsF margins = device.pageLayout().margins(QPageLayout::Millimeter);
  if (margins.isNull()) device.setPageMargins(QMarginsF(2, 2, 2, 2), QPageLayout::Millimeter);
  std::unique_ptr<QTextDocument> laid_out(document.clone());
  laid_out->documentLayout()->setPaintDevice(&device);
  const int horizontal_margin = static_cast<int>((2 / 2.54) * sourceDpi(true));
  const int vertical_margin = static_cast<int>((2 / 2.54) * sourceDpi(false));
  QTextFrameFormat frame = laid_out->rootFrame()->frameFormat();
  frame.setLeftMargin(horizontal_margin);
  frame.setRightMargin(horizontal_margin);
  frame.setTopMargin(vertical_margin);
  frame.setBottomMargin(vertical_margin);
  laid_out->rootFrame()->setFrameFormat(frame);
  laid_out->setPageSize(QSizeF(device.width(), device.height()));
  return laid_out;
}

// Where a document laid out as printed puts its blocks. A block's lines, not its bounding
// rectangle: a line that does not fit at a page's foot (an image) is moved to the next page, and
// the rectangle stays where the block began.
class PrintedPages {
 public:
  explicit PrintedPages(const QTextDocument& laid_out)
      : layout_(laid_out.documentLayout()), page_height_(laid_out.pageSize().height()) {}

  double firstLineTop(const QTextBlock& block) const {
    const QTextLayout* lines = block.layout();
    const double top = layout_->blockBoundingRect(block).top();
    return lines->lineCount() > 0 ? top + lines->lineAt(0).y() : top;
  }
  double lastLineBottom(const QTextBlock& block) const {
    const QTextLayout* lines = block.layout();
    const QRectF rect = layout_->blockBoundingRect(block);
    if (lines->lineCount() == 0) return rect.bottom();
    const QTextLine last = lines->lineAt(lines->lineCount() - 1);
    return rect.top() + last.y() + last.height();
  }
  // From the block's top to its last line's bottom, less any gap its first line was moved by.
  double heightOf(const QTextBlock& block) const {
    return lastLineBottom(block) - firstLineTop(block);
  }
  double topOf(const QTextBlock& block) const { return layout_->blockBoundingRect(block).top(); }
  int firstPageOf(const QTextBlock& block) const { return pageOf(firstLineTop(block)); }
  int lastPageOf(const QTextBlock& block) const { return pageOf(lastLineBottom(block) - 1); }
  double pageHeight() const { return page_height_; }

 private:
  int pageOf(double y) const { return static_cast<int>(std::floor(y / page_height_)); }

  QAbstractTextDocumentLayout* layout_;
  double page_height_;
};

bool isHeading(const QTextBlock& block) {
  return block.blockFormat().headingLevel() > 0;
}

QTextTable* tableOf(const QTextBlock& block) {
  return QTextCursor(block).currentTable();
}

bool holdsImage(const QTextBlock& block) {
  for (auto it = block.begin(); !it.atEnd(); ++it)
    if (it.fragment().charFormat().isImageFormat()) return true;
  return false;
}

int headingLevelOf(const QTextBlock& block) {
  return block.blockFormat().headingLevel();
}

// The block whose end must share the heading's page: past the headings under it and the notes
// that introduce what follows (a line before an image, a table or a heading under it), down to
// a table's first row of data (a header row alone at a page's foot heads nothing either).
QTextBlock headedContent(const QTextBlock& heading) {
  constexpr int kMostBlocksInTheWay = 4;
  const int level = headingLevelOf(heading);
  QTextBlock block = heading.next();
  for (int step = 0; step < kMostBlocksInTheWay && block.isValid(); ++step) {
    const QTextBlock after = block.next();
    if (!after.isValid() || tableOf(block) != nullptr || holdsImage(block)) break;
    const bool introduces = isHeading(block)
                                ? headingLevelOf(block) > level
                                : tableOf(after) != nullptr || holdsImage(after) ||
                                      (isHeading(after) && headingLevelOf(after) > level);
    if (!introduces) break;
    block = after;
  }
  if (QTextTable* table = tableOf(block)) {
    const QTextTableCell cell = table->cellAt(std::min(1, table->rows() - 1), 0);
    if (cell.isValid()) block = cell.lastCursorPosition().block();
  }
  return block;
}

void breakPageBefore(QTextDocument& document, int block_number) {
  QTextCursor cursor(document.findBlockByNumber(block_number));
  QTextBlockFormat format;
  format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
  cursor.mergeBlockFormat(format);
}

}  // namespace

int keepHeadingsWithWhatFollows(QTextDocument& document, QPagedPaintDevice& device) {
  int breaks = 0;
  // In document order: a break moves only what comes after it, so the headings already kept
  // stay kept. After each break the document is laid out afresh: a layout changed in place
  // places table rows a little higher than print() will (by 60 device pixels after one long
  // table), enough to misjudge the headings below it.
  for (int from = 0;;) {
    const std::unique_ptr<QTextDocument> laid_out = layOutAsPrinted(document, device);
    const PrintedPages pages(*laid_out);
    // The margins in the device's pixels, as the layout scales them.
    const double page_margin =
        laid_out->rootFrame()->frameFormat().topMargin() * device.logicalDpiY() / sourceDpi(false);
    int broken = -1;
    for (QTextBlock block = laid_out->findBlockByNumber(from); block.isValid() && broken < 0;
         block = block.next()) {
      if (!isHeading(block) || tableOf(block) != nullptr) continue;
      const QTextBlock content = headedContent(block);
      if (!content.isValid() || pages.lastPageOf(content) == pages.firstPageOf(block)) continue;
      // What the break would put at the next page's top, from the heading to the content's
      // end: taller than a page's text, it would break apart there too (and a heading already
      // at its page's top only parts from content that tall).
      const double span = pages.topOf(content) - pages.topOf(block) + pages.heightOf(content);
      if (span > pages.pageHeight() - 2 * page_margin) continue;
      broken = block.blockNumber();
    }
    if (broken < 0) return breaks;
    breakPageBefore(document, broken);
    ++breaks;
    from = broken + 1;
  }
}

std::vector<int> printedPagesOfBlocks(const QTextDocument& document, QPagedPaintDevice& device) {
  const std::unique_ptr<QTextDocument> laid_out = layOutAsPrinted(document, device);
  const PrintedPages pages(*laid_out);
  std::vector<int> result;
  for (QTextBlock block = laid_out->begin(); block.isValid(); block = block.next())
    result.push_back(pages.firstPageOf(block));
  return result;
}

}  // namespace breakerlab::app
