#include "report_pdf.h"

#include <QBuffer>
#include <QFont>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QImage>
#include <QPdfWriter>
#include <QScreen>
#include <QTextDocument>
#include <QTextOption>
#include <QUrl>

#include "breakerlab/views/qt_text.h"
#include "report_pagination.h"

namespace breakerlab::app {

namespace {

// QTextDocument::print() lays an unpaginated document out on the page with 2 cm margins and
// draws an image at its width in screen pixels scaled by the device's resolution: the page's
// text width in those pixels.
int imageWidthFor(const QPageSize& page) {
  constexpr double kPrintMarginMm = 20;
  const double text_width_inches =
      (page.size(QPageSize::Millimeter).width() - 2 * kPrintMarginMm) / 25.4;
  const QScreen* screen = QGuiApplication::primaryScreen();
  const double dpi = screen != nullptr ? screen->logicalDotsPerInchX() : 96.0;
  return static_cast<int>(text_width_inches * dpi) - 2;
}

// The width a table has on the page in characters of the body text (10 pt, the style's body
// size), the unit the metrics table is laid out in (report_table_layout.h): measured on a metrics
// row's kind of text, letters and numbers, at the screen's resolution as imageWidthFor's pixels
// are. A table starts further in than the text (446 of the 470 points of an A4 page's text in
// the PDF), so it has a tenth less: a layout for more than it has would be squeezed back by Qt
// into titles broken onto more lines.
double tableWidthInCharacters(const QPageSize& page, QFont body) {
  constexpr double kTableShareOfTextWidth = 0.9;
  body.setPointSizeF(10);
  const QFontMetricsF metrics(body);
  const QString sample = QStringLiteral("Cached while healthy 1,760 checkouts 14.09 s +3.20 pp");
  const double character = metrics.horizontalAdvance(sample) / static_cast<double>(sample.size());
  return kTableShareOfTextWidth * imageWidthFor(page) / character;
}

}  // namespace

QByteArray reportPdf(const ReportDocument& report) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter writer(&buffer);
    const QPageSize a4(QPageSize::A4);
    writer.setPageSize(a4);
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));  // print() sets its own
    writer.setResolution(300);
    writer.setTitle(qs(report.title));
    writer.setCreator(qs(report.generator.empty() ? std::string("BreakerLab") : report.generator));

    QTextDocument document;
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9);
    // Letter spacing turns Qt's ligatures off: text copied or searched in the PDF reads "config",
    // not "conﬁg" with the fi ligature.
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
    document.setDefaultFont(font);
    // Lines break between words only: a word wider than its table column widens the column
    // rather than breaking letter by letter (issue #33).
    QTextOption wrapping = document.defaultTextOption();
    wrapping.setWrapMode(QTextOption::WordWrap);
    document.setDefaultTextOption(wrapping);
    // Named images: QTextDocument is handed each lanes image rather than asked to decode a
    // data: URL.
    for (std::size_t i = 0; i < report.lanes.size(); ++i) {
      const std::string& png = report.lanes[i].png;
      if (png.empty()) continue;
      QImage image;
      image.loadFromData(reinterpret_cast<const uchar*>(png.data()), static_cast<int>(png.size()),
                         "PNG");
      document.addResource(QTextDocument::ImageResource, QUrl(qs(reportImageName(i))), image);
    }
    HtmlOptions options;
    options.images = HtmlOptions::Images::named;
    options.image_width = imageWidthFor(a4);
    options.text_width = tableWidthInCharacters(a4, font);
    document.setHtml(QString::fromUtf8(reportHtml(report, options)));
    keepHeadingsWithWhatFollows(document, writer);
    document.print(&writer);
  }
  return bytes;
}

}  // namespace breakerlab::app
