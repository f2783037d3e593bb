# `merge` of parts whose recorded arguments are wrong (../shared/reproducers/hostile-input/15):
# the error names the part file and the search's key, never a command-line option the user did
# not give, and a method, budget, seed or seed count that `tune` itself refuses is refused.
#   cmake -DCLI=<exe> -DWORK=<dir> -P merge_parts_cli.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include(${CMAKE_CURRENT_LIST_DIR}/cli_script.cmake)

set(search tune inc-2026-0908-pricing --knob breaker.open.interval=1..60:log
    --knob fallback.cache.ttl=1s..120s --minimize cached_while_healthy_s --budget 30 --threads 1)
foreach(shard 0 1)
  run_cli(0 ignored ${search} --shard ${shard}/2 --partial "${WORK}/p${shard}.json")
endforeach()
file(READ "${WORK}/p0.json" p0)
file(READ "${WORK}/p1.json" p1)

# Each case: what is changed in both parts' "search" (JSON), and the message expected.
set(cases
    "seeds|0|p0-seeds.json: search.seeds: expected 1 to 1000 seeds, got 0"
    "seeds|99999999999|p0-seeds.json: search.seeds: expected 1 to 1000 seeds, got 99999999999"
    "seeds|-3|p0-seeds.json: search.seeds: expected a whole number, got -3"
    "method|\"quantum\"|p0-method.json: search.method: expected pattern or random, got \"quantum\""
    "budget|-5|p0-budget.json: search.budget: expected a whole number, got -5"
    "budget|1000000000000000000|p0-budget.json: search.budget: expected 1 to [0-9]+ configs, got 1000000000000000000"
    "seed|\"99999999999999999999999\"|p0-seed.json: search.seed: expected a whole number from 0 to 18446744073709551615"
    "knobs|[]|p0-knobs.json: search.knobs: KEY=LOW..HIGH: give at least one knob to turn"
    "incidents|[]|p0-incidents.json: search.incidents: an INCIDENT file or bundled name is required"
    "minimize|[\"nope\"]|p0-minimize.json: search.minimize: unknown metric \"nope\"")
foreach(case IN LISTS cases)
  string(REPLACE "|" ";" case "${case}")
  list(GET case 0 key)
  list(GET case 1 value)
  list(GET case 2 expected)
  foreach(part p0 p1)
    string(JSON edited SET "${${part}}" search ${key} "${value}")
    file(WRITE "${WORK}/${part}-${key}.json" "${edited}")
  endforeach()
  execute_process(COMMAND "${CLI}" merge "${WORK}/p0-${key}.json" "${WORK}/p1-${key}.json"
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 2 OR NOT err MATCHES "${expected}" OR
     err MATCHES "--(seeds|seed|budget|method|knob|minimize|library|goal|against)[ :]")
    message(FATAL_ERROR "search.${key} = ${value}: exit ${code}, expected 2 and \"${expected}\":\n${err}")
  endif()
endforeach()

# A front of 70,000 configs: the count and the limit, not "expected a list".
string(JSON front GET "${p0}" front 0)
string(REPEAT "${front}," 69999 many)
string(JSON big SET "${p0}" front "[${many}${front}]")
file(WRITE "${WORK}/big.json" "${big}")
execute_process(COMMAND "${CLI}" merge "${WORK}/big.json" "${WORK}/p1.json"
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR NOT err MATCHES "big.json: front: 70000 entries, more than the 65536 a part holds")
  message(FATAL_ERROR "a front of 70000: exit ${code}:\n${err}")
endif()

# The untouched parts still merge.
run_cli(0 merged merge "${WORK}/p1.json" "${WORK}/p0.json")
file(REMOVE_RECURSE "${WORK}")
