#include "lanes/time_axis.h"

#include <algorithm>
#include <cmath>

namespace breakerlab::views {

namespace {

constexpr double kDay = 24 * 3600;

class ClockTicker : public QCPAxisTickerTime {
 public:
  explicit ClockTicker(Micros clock_start) : clock_start_(clock_start) {
    setTickOrigin(clockTickOrigin(clock_start));
    // With milliseconds in the format, QCPAxisTickerTime steps below a second when zoomed in
    // (the labels themselves come from clockTickLabel).
    setTimeFormat(QStringLiteral("%h:%m:%s.%z"));
  }

 protected:
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    return clockTickLabel(clock_start_, tick, last_step_);
  }
  double getTickStep(const QCPRange& range) override {
    last_step_ = QCPAxisTickerTime::getTickStep(range);
    return last_step_;
  }

 private:
  Micros clock_start_;
  double last_step_ = 1;
};

}  // namespace

double clockTickOrigin(Micros clock_start) {
  const double since_epoch = static_cast<double>(clock_start) / kSecond;
  return -std::fmod(since_epoch, kDay);
}

QString clockTickLabel(Micros clock_start, double seconds, double tick_step) {
  // To the millisecond, rounded: a tick at 12.9999999 s reads 12:…:13.
  const qint64 ms = clock_start / 1000 + std::llround(seconds * 1000);
  const QDateTime at = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
  QString text = at.toString(QStringLiteral("HH:mm:ss"));
  if (tick_step < 1 - 1e-9) {
    // As many decimals as the step needs: 0.5 s ticks read .5, 0.25 s ticks .25.
    int decimals = 1;
    while (decimals < 3) {
      const double scaled = tick_step * std::pow(10.0, decimals);
      if (std::abs(scaled - std::round(scaled)) < 1e-6) break;
      ++decimals;
    }
    const qint64 millis = ((ms % 1000) + 1000) % 1000;
    text += QString::number(static_cast<double>(millis) / 1000, 'f', decimals).mid(1);
  }
  return text;
}

QString readoutTimeText(std::optional<Micros> clock_start, double seconds, int decimals) {
  decimals = std::clamp(decimals, 0, 3);
  if (!clock_start) return QObject::tr("%1 s").arg(QString::number(seconds, 'f', decimals));
  // In units of the last digit shown, rounded once: 59.9996 s at 3 decimals is the next minute.
  qint64 unit = 1;
  for (int i = decimals; i < 3; ++i) unit *= 10;
  const qint64 ms = *clock_start / 1000 + std::llround(seconds * 1000);
  const qint64 rounded = (ms >= 0 ? (ms + unit / 2) / unit : -((-ms + unit / 2) / unit)) * unit;
  QString text =
      QDateTime::fromMSecsSinceEpoch(rounded, Qt::UTC).toString(QStringLiteral("HH:mm:ss"));
  if (decimals > 0) {
    const qint64 fraction = ((rounded % 1000) + 1000) % 1000 / unit;
    text += QLatin1Char('.') + QString::number(fraction).rightJustified(decimals, QLatin1Char('0'));
  }
  return text;
}

QSharedPointer<QCPAxisTicker> makeTimeTicker(std::optional<Micros> clock_start) {
  if (clock_start) return QSharedPointer<QCPAxisTicker>(new ClockTicker(*clock_start));
  return QSharedPointer<QCPAxisTicker>(new QCPAxisTicker);
}

QString timeAxisLabel(std::optional<Micros> clock_start) {
  return clock_start ? QObject::tr("time (UTC)") : QObject::tr("time (s)");
}

std::optional<Micros> axisClock(const Incident& incident) {
  return incident.clock_start ? incident.clock_start : incident.clock_of_day;
}

}  // namespace breakerlab::views
