#include "report_pdf.h"

#include <QBuffer>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QPdfWriter>
#include <QScreen>
#include <QTextDocument>
#include <QUrl>

#include "breakerlab/views/qt_text.h"

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
    document.setHtml(QString::fromUtf8(reportHtml(report, options)));
    document.print(&writer);
  }
  return bytes;
}

}  // namespace breakerlab::app
