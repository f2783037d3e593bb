#pragma once
// Headings kept on the page of what they head. QTextDocument has no keep-with-next (its CSS
// knows page-break-before and -after "always", not "avoid"), so the report's PDF left a heading
// alone at a page's foot with its lanes or table on the next page (issue #33). Here the document
// is laid out as QTextDocument::print() lays it out, and each such heading gets a page break
// before it.
#include <QPagedPaintDevice>
#include <QTextDocument>
#include <vector>

namespace breakerlab::app {

// Puts a page break before every heading (h1 to h6) that print(&device) would leave on an
// earlier page than the first lines of what it heads: the next block that is not a heading, or,
// when that is a note before an image or a table, the image or the table's first two rows. Not
// before a heading already at the top of its page, nor one whose content would not fit on the
// next page either. Returns how many breaks it put.
int keepHeadingsWithWhatFollows(QTextDocument& document, QPagedPaintDevice& device);

// The page (from 0) on which the first line of each block of `document` is printed on `device`,
// by block number.
std::vector<int> printedPagesOfBlocks(const QTextDocument& document, QPagedPaintDevice& device);

}  // namespace breakerlab::app
