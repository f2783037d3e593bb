#include "lanes/label_layout.h"

#include <algorithm>

namespace breakerlab::views {

namespace {
bool overlaps(const std::vector<std::pair<double, double>>& taken, double left, double right) {
  return std::any_of(taken.begin(), taken.end(),
                     [&](const auto& r) { return r.first < right && left < r.second; });
}
}  // namespace

std::vector<LabelPlace> placeEventLabels(std::span<const LabelRequest> requests, double area_left,
                                         double area_right, int lines) {
  std::vector<LabelPlace> places(requests.size());
  std::vector<std::vector<std::pair<double, double>>> taken(
      static_cast<std::size_t>(std::max(lines, 0)));
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const LabelRequest& r = requests[i];
    LabelPlace& place = places[i];
    place.hang_left = r.anchor + r.width > area_right;
    place.left = place.hang_left ? r.anchor - r.width : r.anchor;
    // Hanging left near the right edge must not push it past the left one instead.
    if (place.hang_left && place.left < area_left) {
      place.hang_left = false;
      place.left = r.anchor;
    }
    place.right = place.left + r.width;
    for (int line = 0; line < lines; ++line) {
      auto& row = taken[static_cast<std::size_t>(line)];
      if (overlaps(row, place.left, place.right)) continue;
      row.emplace_back(place.left, place.right);
      place.line = line;
      break;
    }
  }
  return places;
}

LabelPlace placeBracketLabel(double x0, double x1, double width, double area_left,
                             double area_right, double min_span,
                             std::vector<std::pair<double, double>>& taken) {
  LabelPlace place;
  if (x1 < x0) std::swap(x0, x1);
  const double from = std::max(x0, area_left), to = std::min(x1, area_right);
  if (to - from < min_span) return place;
  const double half = width / 2;
  const double centre =
      std::clamp((from + to) / 2, area_left + half, std::max(area_left + half, area_right - half));
  place.left = centre - half;
  place.right = centre + half;
  if (overlaps(taken, place.left, place.right)) return place;
  taken.emplace_back(place.left, place.right);
  place.line = 0;
  return place;
}

std::vector<Cluster> clusterByPixels(std::span<const double> xs, double join) {
  std::vector<Cluster> clusters;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (clusters.empty() || !(xs[i] - xs[i - 1] < join))
      clusters.push_back({i, i + 1});
    else
      clusters.back().end = i + 1;
  }
  return clusters;
}

std::vector<Cluster> clusterCrowds(std::span<const double> xs, double join, double crowd,
                                   std::size_t crowd_from) {
  std::vector<Cluster> clusters;
  std::size_t i = 0;
  while (i < xs.size()) {
    std::size_t j = i + 1;
    while (j < xs.size() && xs[j] - xs[j - 1] < crowd) ++j;
    if (j - i >= crowd_from) {
      clusters.push_back({i, j});
    } else {
      for (const Cluster& c : clusterByPixels(xs.subspan(i, j - i), join))
        clusters.push_back({c.begin + i, c.end + i});
    }
    i = j;
  }
  return clusters;
}

}  // namespace breakerlab::views
