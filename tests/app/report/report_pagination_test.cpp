// Headings kept on the page of what they head in the PDF (issue #33: a heading alone at a
// page's foot, its lanes or table on the next page). Each document is tried with every count of
// filler lines before the heading that walks it down a whole page, so that some count leaves it
// at the foot as print() lays it out.
#include <gtest/gtest.h>

#include <QBuffer>
#include <QImage>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextDocument>
#include <QUrl>

#include "report_pagination.h"

namespace breakerlab::app {
namespace {

// The A4 writer the report prints on, margins left to print().
struct ReportWriter {
  QBuffer buffer;
  QPdfWriter writer{&buffer};
  ReportWriter() {
    buffer.open(QIODevice::WriteOnly);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(300);
  }
};

int blockNumberOf(const QTextDocument& document, const QString& text) {
  for (QTextBlock block = document.begin(); block.isValid(); block = block.next())
    if (block.text() == text) return block.blockNumber();
  return -1;
}

QString fillerLines(int count) {
  QString html;
  for (int i = 0; i < count; ++i) html += QStringLiteral("<p>Filler line %1.</p>").arg(i);
  return html;
}

struct Headed {
  const char* what;
  QString content;       // the HTML after the heading
  QString content_text;  // the text of the block that must share the heading's page
  int content_offset;    // that block's number after the block holding content_text
};

TEST(ReportPagination, AHeadingIsPrintedOnThePageOfWhatItHeads) {
  const Headed cases[] = {
      {"a table: its header row and first row",
       QStringLiteral("<table border=\"1\"><tr><th>Metric</th><th>Deployed</th></tr>"
                      "<tr><td>First row</td><td>1,760</td></tr>"
                      "<tr><td>Second row</td><td>0</td></tr></table>"),
       QStringLiteral("First row"), 0},
      {"a note and the lanes image under it",
       QStringLiteral("<p>The note over the image.</p><p><img src=\"lanes.png\" "
                      "width=\"600\"></p><p>After the image.</p>"),
       QStringLiteral("The note over the image."), 1},
      {"a heading under the heading, then a table",
       QStringLiteral("<h3>The subheading</h3><table border=\"1\"><tr><th>Setting</th></tr>"
                      "<tr><td>First row</td></tr></table>"),
       QStringLiteral("First row"), 0},
  };
  QImage lanes(1100, 600, QImage::Format_RGB32);
  lanes.fill(Qt::gray);
  for (const Headed& c : cases) {
    int parted_before = 0;
    for (int fillers = 30; fillers < 110; ++fillers) {
      QTextDocument document;
      document.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("lanes.png")), lanes);
      document.setHtml(fillerLines(fillers) + QStringLiteral("<h2>The heading</h2>") + c.content);
      const int heading = blockNumberOf(document, QStringLiteral("The heading"));
      const int content = blockNumberOf(document, c.content_text) + c.content_offset;
      ASSERT_GE(heading, 0) << c.what;
      ASSERT_GT(content, heading) << c.what;

      ReportWriter printing;
      const std::vector<int> before = printedPagesOfBlocks(document, printing.writer);
      const bool parted =
          before[static_cast<std::size_t>(heading)] != before[static_cast<std::size_t>(content)];
      parted_before += parted ? 1 : 0;
      const int breaks = keepHeadingsWithWhatFollows(document, printing.writer);
      EXPECT_EQ(breaks, parted ? 1 : 0) << c.what << ", " << fillers << " lines: a break only "
                                        << "where the heading parted from its content";
      const std::vector<int> after = printedPagesOfBlocks(document, printing.writer);
      EXPECT_EQ(after[static_cast<std::size_t>(heading)], after[static_cast<std::size_t>(content)])
          << c.what << ", " << fillers << " lines";
    }
    // Without it some count parts them: the test above can see the fault.
    EXPECT_GT(parted_before, 0) << c.what;
  }
}

// A heading whose content is taller than a page would part from part of it on any page: no
// break, which would only leave a blank page's foot.
TEST(ReportPagination, ContentTallerThanAPageIsLeftWhereItIs) {
  QImage tall(600, 4000, QImage::Format_RGB32);
  tall.fill(Qt::gray);
  for (int fillers = 30; fillers < 110; fillers += 7) {
    QTextDocument document;
    document.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("tall.png")), tall);
    document.setHtml(fillerLines(fillers) +
                     QStringLiteral("<h2>The heading</h2><p><img src=\"tall.png\" width=\"600\" "
                                    "height=\"4000\"></p>"));
    ReportWriter printing;
    EXPECT_EQ(keepHeadingsWithWhatFollows(document, printing.writer), 0) << fillers;
  }
}

}  // namespace
}  // namespace breakerlab::app
