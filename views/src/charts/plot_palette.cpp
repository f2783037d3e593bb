#include "charts/plot_palette.h"

#include <qcustomplot.h>

namespace breakerlab {

void applyPlotPalette(QCustomPlot& plot, const QList<QCPAxis*>& axes, const QPalette& palette,
                      int grid_alpha) {
  const QColor text = palette.color(QPalette::WindowText);
  QColor grid = text;
  grid.setAlpha(grid_alpha);
  plot.setBackground(palette.color(QPalette::Base));
  for (QCPAxis* axis : axes) {
    axis->setBasePen(QPen(text, 1));
    axis->setTickPen(QPen(text, 1));
    axis->setSubTickPen(QPen(text, 1));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
  }
}

QPalette documentPalette(const QPalette& from) {
  QPalette p = from;
  for (auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
    p.setColor(group, QPalette::Window, Qt::white);
    p.setColor(group, QPalette::Base, Qt::white);
    p.setColor(group, QPalette::WindowText, QColor(0x20, 0x20, 0x20));
    p.setColor(group, QPalette::Text, QColor(0x20, 0x20, 0x20));
    p.setColor(group, QPalette::Highlight, QColor(0x30, 0x78, 0xd0));
  }
  return p;
}

}  // namespace breakerlab
