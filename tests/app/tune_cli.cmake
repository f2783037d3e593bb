# breakerlab-cli tune and merge end to end (docs/tuning.md):
# - on 8 Sep, with no failed checkout as the goal and the least time cached while Pricing is
#   healthy as the objective, the tuned config is at least as good as the document's proposed fix
#   (what-if early-probe), in the generic, gobreaker and resilience4j forms;
# - a search sharded three ways and merged prints the unsharded search's result byte for byte;
# - -o writes a config that replays to the tuned metrics.
#   cmake -DCLI=<exe> -DWORK=<dir> -P tune_cli.cmake
file(MAKE_DIRECTORY "${WORK}")
set(incident inc-2026-0908-pricing)

include(${CMAKE_CURRENT_LIST_DIR}/cli_script.cmake)

run_cli(0 fix replay ${incident} --whatif early-probe --json)
string(JSON fix_cached GET "${fix}" metrics cached_while_healthy_s)
string(JSON fix_failed GET "${fix}" metrics failed_checkouts)

set(generic --knob breaker.open.interval=1..60:log --knob breaker.open.early_probe.enabled
    --knob breaker.open.early_probe.poll=500ms..10s:log)
set(gobreaker --knob gobreaker.Timeout=0.5..60:log --knob gobreaker.MaxRequests=1..10)
set(resilience4j --knob resilience4j.waitDurationInOpenState=1s..60s:log
    --knob resilience4j.permittedNumberOfCallsInHalfOpenState=1..10
    --knob resilience4j.automaticTransitionFromOpenToHalfOpenEnabled)
foreach(library generic gobreaker resilience4j)
  run_cli(0 tuned tune ${incident} --library ${library} ${${library}} --goal "failed_checkouts == 0"
      --minimize cached_while_healthy_s --budget 1500 --json -o "${WORK}/tuned-${library}")
  string(JSON meets GET "${tuned}" meets_goals)
  string(JSON cached GET "${tuned}" front 0 objectives cached_while_healthy_s)
  string(JSON failed GET "${tuned}" front 0 incidents 0 metrics failed_checkouts)
  if(NOT meets OR NOT failed EQUAL 0 OR cached GREATER fix_cached)
    message(FATAL_ERROR "${library}: tuned cached_while_healthy_s ${cached} (failed ${failed}), "
                        "the document's fix ${fix_cached}")
  endif()
  message(STATUS "${library}: cached while healthy ${cached} s; the document's fix ${fix_cached} s")
  if(NOT EXISTS "${WORK}/tuned-${library}")
    message(FATAL_ERROR "-o did not write ${WORK}/tuned-${library}")
  endif()
endforeach()

# The generic config written with -o replays to the tuned value.
file(RENAME "${WORK}/tuned-generic" "${WORK}/tuned-generic.yaml")
run_cli(0 replayed replay ${incident} --config "${WORK}/tuned-generic.yaml" --json --no-incident-expect)
string(JSON replayed_cached GET "${replayed}" metrics cached_while_healthy_s)
run_cli(0 tuned tune ${incident} ${generic} --goal "failed_checkouts == 0"
    --minimize cached_while_healthy_s --budget 1500 --json)
string(JSON cached GET "${tuned}" front 0 objectives cached_while_healthy_s)
if(NOT replayed_cached EQUAL cached)
  message(FATAL_ERROR "the written config replays to ${replayed_cached}, tuned ${cached}")
endif()

# Sharded three ways and merged: the same result, byte for byte.
set(search tune ${incident} ${generic} --knob fallback.cache.ttl=10s..120s
    --minimize cached_while_healthy_s --minimize dependency_calls --budget 1000)
run_cli(0 whole ${search} --json)
foreach(shard 0 1 2)
  run_cli(0 ignored ${search} --shard ${shard}/3 --partial "${WORK}/part-${shard}.json")
endforeach()
run_cli(0 merged merge "${WORK}/part-2.json" "${WORK}/part-0.json" "${WORK}/part-1.json" --json)
if(NOT merged STREQUAL whole)
  file(WRITE "${WORK}/whole.json" "${whole}")
  file(WRITE "${WORK}/merged.json" "${merged}")
  message(FATAL_ERROR "merged shards differ from the whole search: diff ${WORK}/whole.json ${WORK}/merged.json")
endif()
string(JSON front_size LENGTH "${whole}" front)
if(front_size LESS 2)
  message(FATAL_ERROR "two objectives: expected a front of several configs, got ${front_size}")
endif()
# A shard missing, or one of another search, is refused.
run_cli(2 ignored merge "${WORK}/part-0.json" "${WORK}/part-1.json")
run_cli(0 ignored tune ${incident} ${generic} --minimize cached_while_healthy_s --budget 1000
    --shard 1/3 --partial "${WORK}/other-1.json")
run_cli(2 ignored merge "${WORK}/part-0.json" "${WORK}/other-1.json" "${WORK}/part-2.json")
# A part edited after it was written: a value outside its knob's range, a metric too few.
file(READ "${WORK}/part-0.json" part)
string(JSON entries LENGTH "${part}" front)
if(entries GREATER 0)
  set(list front)
else()
  set(list closest)
endif()
string(JSON outside SET "${part}" ${list} 0 values 0 1e300)
string(JSON short SET "${part}" ${list} 0 evaluation objectives "[1]")
foreach(edit outside short)
  file(WRITE "${WORK}/edited-0.json" "${${edit}}")
  run_cli(2 ignored merge "${WORK}/edited-0.json" "${WORK}/part-1.json" "${WORK}/part-2.json")
endforeach()
