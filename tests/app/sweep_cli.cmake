# breakerlab-cli sweep end to end (docs/sensitivity.md): on 8 Sep with the early probe, a 4 x 3
# map of the open interval by the health poll has its header and a row per cell in the map's
# order, each cell's metric is the replay of that config (replay --set ... --json), and with Qt
# the PNG is written.
#   cmake -DCLI=<exe> -DWORK=<dir> -DPNG=ON|OFF -P sweep_cli.cmake
file(MAKE_DIRECTORY "${WORK}")
set(incident inc-2026-0908-pricing)

include(${CMAKE_CURRENT_LIST_DIR}/cli_script.cmake)

set(csv "${WORK}/map.csv")
set(png "${WORK}/map.png")
file(REMOVE "${csv}" "${png}" "${WORK}/x.csv")
set(picture)
if(PNG)
  set(picture --png "${png}" --png-size 640x480)
endif()
run_cli(0 said sweep ${incident} --whatif early-probe --knob breaker.open.interval=5..20
    --knob breaker.open.early_probe.poll=1s..3s --points 4,3 --metric cached_while_healthy_s
    --metric failed_checkouts -o "${csv}" ${picture})
if(NOT said MATCHES "^Swept 12 cells \\(4 x 3\\) in [0-9.]+ s: [0-9]+ meet all 2 goals\\.\n")
  message(FATAL_ERROR "unexpected summary: ${said}")
endif()

file(STRINGS "${csv}" rows)
list(LENGTH rows count)
if(NOT count EQUAL 13)
  message(FATAL_ERROR "${count} lines in the CSV, expected a header and 12 cells:\n${rows}")
endif()
list(GET rows 0 header)
set(want "breaker.open.interval,breaker.open.early_probe.poll,cached_while_healthy_s,failed_checkouts,feasible")
if(NOT header STREQUAL want)
  message(FATAL_ERROR "header: ${header}\nexpected: ${want}")
endif()
# The last knob runs fastest: 5,1 5,2 5,3 10,1 ...
list(GET rows 1 first)
list(GET rows 2 second)
list(GET rows 4 fourth)
if(NOT first MATCHES "^5,1," OR NOT second MATCHES "^5,2," OR NOT fourth MATCHES "^10,1,")
  message(FATAL_ERROR "rows out of order: ${first} / ${second} / ${fourth}")
endif()

# One cell against its replay: 15 s open, 3 s poll (row 9).
list(GET rows 9 cell)
string(REPLACE "," ";" fields "${cell}")
list(GET fields 0 interval)
list(GET fields 1 poll)
list(GET fields 2 cached)
list(GET fields 3 failed)
list(GET fields 4 feasible)
if(NOT interval EQUAL 15 OR NOT poll EQUAL 3)
  message(FATAL_ERROR "row 9 is ${cell}, expected the cell 15 s x 3 s")
endif()
# The what-if is the early probe on (its own checks would fail at other knobs' values: exit 1).
run_cli(0 replayed replay ${incident} --set breaker.open.early_probe.enabled=true
    --set breaker.open.interval=15s --set breaker.open.early_probe.poll=3s --json)
string(JSON replayed_cached GET "${replayed}" metrics cached_while_healthy_s)
string(JSON replayed_failed GET "${replayed}" metrics failed_checkouts)
if(NOT cached EQUAL replayed_cached OR NOT failed EQUAL replayed_failed)
  message(FATAL_ERROR "the cell says ${cached} s cached while healthy and ${failed} failed; "
                      "its replay ${replayed_cached} s and ${replayed_failed}")
endif()
if(replayed_failed EQUAL 0 AND replayed_cached LESS_EQUAL 3)
  set(meets 1)
else()
  set(meets 0)
endif()
if(NOT feasible EQUAL meets)
  message(FATAL_ERROR "feasible is ${feasible}; the incident's goals say ${meets}")
endif()

if(PNG)
  file(READ "${png}" head LIMIT 8 HEX)
  if(NOT head STREQUAL "89504e470d0a1a0a")
    message(FATAL_ERROR "${png} is not a PNG (starts ${head})")
  endif()
endif()
# Sharded three ways and merged: the unsharded map's CSV (and PNG), byte for byte.
set(map sweep ${incident} --whatif early-probe --knob breaker.open.interval=5..20
    --knob breaker.open.early_probe.poll=1s..3s --points 4,3 --metric cached_while_healthy_s
    --metric failed_checkouts)
foreach(shard 0 1 2)
  run_cli(0 ignored ${map} --shard ${shard}/3 --partial "${WORK}/part-${shard}.json")
endforeach()
set(merged_picture)
if(PNG)
  set(merged_picture --png "${WORK}/merged.png" --png-size 640x480)
endif()
run_cli(0 merged merge "${WORK}/part-1.json" "${WORK}/part-2.json" "${WORK}/part-0.json"
    -o "${WORK}/merged.csv" ${merged_picture})
if(NOT merged MATCHES "^Merged 12 cells \\(4 x 3\\): [0-9]+ meet all 2 goals")
  message(FATAL_ERROR "unexpected merge summary: ${merged}")
endif()
file(SHA256 "${csv}" whole_csv)
file(SHA256 "${WORK}/merged.csv" merged_csv)
if(NOT whole_csv STREQUAL merged_csv)
  message(FATAL_ERROR "merged CSV differs: diff ${csv} ${WORK}/merged.csv")
endif()
if(PNG)
  file(SHA256 "${png}" whole_png)
  file(SHA256 "${WORK}/merged.png" merged_png)
  if(NOT whole_png STREQUAL merged_png)
    message(FATAL_ERROR "merged PNG differs from the unsharded one")
  endif()
endif()
# A shard missing, one given twice, or a search's part among a map's: refused.
run_cli(2 ignored merge "${WORK}/part-0.json" "${WORK}/part-1.json" -o "${WORK}/x.csv")
run_cli(2 ignored merge "${WORK}/part-0.json" "${WORK}/part-0.json" "${WORK}/part-2.json" -o "${WORK}/x.csv")
run_cli(0 ignored tune ${incident} --knob breaker.open.interval=5..20 --minimize cached_while_healthy_s
    --budget 8 --shard 1/3 --partial "${WORK}/tune-1.json")
run_cli(2 ignored merge "${WORK}/part-0.json" "${WORK}/tune-1.json" "${WORK}/part-2.json" -o "${WORK}/x.csv")
# A part edited after it was written: stopped before its end, a cell with a metric too few, a
# cell whose feasible flag disagrees with its goals, a grid of other values.
file(READ "${WORK}/part-0.json" part)
string(JSON stopped SET "${part}" cancelled true)
string(JSON short SET "${part}" cells 0 evaluation objectives "[1]")
string(JSON feasible GET "${part}" cells 0 evaluation feasible)
if(feasible)
  string(JSON flipped SET "${part}" cells 0 evaluation feasible false)
else()
  string(JSON flipped SET "${part}" cells 0 evaluation feasible true)
endif()
string(JSON regrid SET "${part}" axes 0 0 6)
foreach(edit stopped short flipped regrid)
  file(WRITE "${WORK}/edited-0.json" "${${edit}}")
  run_cli(2 ignored merge "${WORK}/edited-0.json" "${WORK}/part-1.json" "${WORK}/part-2.json"
          -o "${WORK}/x.csv")
endforeach()
if(EXISTS "${WORK}/x.csv")
  message(FATAL_ERROR "a refused merge wrote ${WORK}/x.csv")
endif()

message(STATUS "cell 15 s x 3 s: ${cached} s cached while healthy, ${failed} failed, feasible ${feasible}")
