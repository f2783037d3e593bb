#pragma once
// How the plots take the desktop's colours, in one place: the axes, ticks, labels and grid in
// the palette's text colour, the background in its base colour; and the light palette a
// document (an exported image, the report) is drawn in whatever the desktop's theme.
#include <QList>
#include <QPalette>

class QCPAxis;
class QCustomPlot;

namespace breakerlab {

// The grid's opacity (0-255) over the text colour: lighter on a dense map than on the lanes.
inline constexpr int kLanesGridAlpha = 40;
inline constexpr int kMapGridAlpha = 35;

// The plot's background and each axis in `palette`'s colours.
void applyPlotPalette(QCustomPlot& plot, const QList<QCPAxis*>& axes, const QPalette& palette,
                      int grid_alpha);

// `from` with a white window and base and near-black text, as documents are drawn.
QPalette documentPalette(const QPalette& from);

}  // namespace breakerlab
