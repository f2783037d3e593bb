// `sweep --png`: the map as the workbench's Sensitivity dock draws it, light, at the size asked.
#include "sweep_png.h"

#include <QBuffer>
#include <QImage>
#include <stdexcept>

#include "breakerlab/views/sensitivity_plot.h"
#include "offscreen_application.h"

namespace breakerlab::cli {

std::string drawSweepPng(const SweepPicture& picture) {
  const auto application = offscreenApplication();
  views::SensitivityMap map =
      views::sensitivityMapOf(*picture.sweep, picture.knobs, picture.metrics, picture.goals);
  map.title = picture.title;
  views::SensitivityPlot plot;
  plot.setAttribute(Qt::WA_DontShowOnScreen);
  plot.resize(picture.width, picture.height);
  plot.show();  // lays the plot out at its size
  plot.setMap(std::move(map));
  plot.setCurrent(picture.current);
  const QImage image = plot.renderImage(QSize(picture.width, picture.height));
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (image.isNull() || !image.save(&buffer, "PNG"))
    throw std::runtime_error("cannot draw the map's PNG");
  return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

}  // namespace breakerlab::cli
