# Runs breakerlab-cli over every hostile input, in every role a file can have (incident, config,
# breaker policy, call log, postmortem), and checks that each run ends in a clear error or a
# bounded success: never exit 3 (an internal error), never silence, never a wall of text, never
# a hang.
#   cmake -DCLI=<exe> -DHOSTILE=<dir of files> -DFIXTURES=<tests/app/fixtures> -DWORK=<scratch dir>
#         -P hostile_inputs.cmake
set(max_stderr 600)  # position, reason, an 80-character quote and the keys of a work estimate
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Inputs that cannot live in the source tree: a FIFO nobody writes, a 1 TiB sparse file, a 10 MB
# field, deep nesting.
execute_process(COMMAND mkfifo "${WORK}/fifo.yaml" RESULT_VARIABLE fifo_code)
if(NOT fifo_code EQUAL 0)
  message(FATAL_ERROR "mkfifo failed")
endif()
file(WRITE "${WORK}/huge.yaml" "format: breakerlab/1\n")
execute_process(COMMAND truncate -s 1T "${WORK}/huge.yaml")
string(REPEAT "x" 1000000 mega)
string(REPEAT "${mega}" 10 field)
file(WRITE "${WORK}/field-10mb.csv" "start_s,duration_s,outcome\n0.0,0.010,success\n1.0,0.010,${field}\n")
string(REPEAT "{a: " 10000 nested)
file(WRITE "${WORK}/nested-10000.yaml" "format: breakerlab/1\nid: x\ntraffic: ${nested}\n")
string(REPEAT "- " 10000 dashes)
file(WRITE "${WORK}/nested-lists-10000.yaml" "format: breakerlab-config/1\nbreaker: ${dashes}x\n")

# Deep JSON: nlohmann parses it, then copies, dumps and compares it by recursion (an OTLP
# attribute 15,000 levels deep overflowed the stack; so did a merge part's "search").
string(REPEAT "{\"kvlistValue\":{\"values\":[{\"key\":\"k\",\"value\":" 20000 kv_open)
string(REPEAT "}]}}" 20000 kv_close)
file(WRITE "${WORK}/otlp-kvlist-20000.json"
     "{\"resourceSpans\":[{\"resource\":{\"attributes\":[]},\"scopeSpans\":[{\"spans\":[{"
     "\"traceId\":\"00000000000000000000000000000001\",\"spanId\":\"0000000000000002\","
     "\"name\":\"GET\",\"kind\":\"SPAN_KIND_CLIENT\","
     "\"startTimeUnixNano\":\"1788876120000000000\",\"endTimeUnixNano\":\"1788876120010000000\","
     "\"attributes\":[{\"key\":\"deep\",\"value\":${kv_open}{\"stringValue\":\"x\"}${kv_close}}]}]}]}]}\n")
string(REPEAT "{\"a\":" 50000 search_open)
string(REPEAT "}" 50000 search_close)
file(WRITE "${WORK}/part-deep.json"
     "{\"format\":\"breakerlab-tune-partial/1\",\"search\":${search_open}1${search_close}}")
string(REPEAT "[" 100000 arrays_open)
string(REPEAT "]" 100000 arrays_close)
file(WRITE "${WORK}/arrays-100000.json" "${arrays_open}${arrays_close}\n")
file(WRITE "${WORK}/prometheus-deep.json"
     "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":${arrays_open}${arrays_close}}}")

file(GLOB hostile "${HOSTILE}/*")
list(APPEND hostile "${WORK}/fifo.yaml" "${WORK}/huge.yaml" "${WORK}/field-10mb.csv"
     "${WORK}/nested-10000.yaml" "${WORK}/nested-lists-10000.yaml"
     "${WORK}/otlp-kvlist-20000.json" "${WORK}/part-deep.json" "${WORK}/arrays-100000.json"
     "${WORK}/prometheus-deep.json" /dev/zero /dev/null
     "${WORK}")

set(incident "${FIXTURES}/../../../resources/incidents/inc-2026-0908-pricing.yaml")
set(policy "${FIXTURES}/consecutive-policy.yaml")
set(calls "${FIXTURES}/calls.csv")
set(failures 0)
set(runs 0)
foreach(input IN LISTS hostile)
  get_filename_component(name "${input}" NAME)
  foreach(role replay config policy calls import merge)
    if(role STREQUAL "replay")
      set(args replay "${input}")
    elseif(role STREQUAL "config")
      set(args replay "${incident}" --config "${input}")
    elseif(role STREQUAL "policy")
      set(args breaker --policy "${input}" --calls "${calls}")
    elseif(role STREQUAL "calls")
      set(args breaker --policy "${policy}" --calls "${input}")
    elseif(role STREQUAL "merge")
      set(args merge "${input}")
    else()
      set(args import --no-calibrate "${input}")
    endif()
    math(EXPR runs "${runs} + 1")
    execute_process(COMMAND "${CLI}" ${args} TIMEOUT 60
                    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
    string(LENGTH "${err}" err_length)
    set(problem "")
    if(NOT code MATCHES "^[0-9]+$")
      set(problem "did not finish: ${code}")
    elseif(code EQUAL 3)
      set(problem "exit 3 (internal error)")
    elseif(code GREATER 2)
      set(problem "exit ${code}")
    elseif(code EQUAL 2 AND err_length EQUAL 0)
      set(problem "exit 2 with nothing on stderr")
    elseif(code EQUAL 2 AND err_length GREATER max_stderr)
      set(problem "${err_length} characters on stderr")
    endif()
    if(problem)
      string(SUBSTRING "${err}" 0 300 err_start)
      message(SEND_ERROR "${name} as ${role}: ${problem}\n  stderr: ${err_start}")
      math(EXPR failures "${failures} + 1")
    endif()
  endforeach()
endforeach()
# The deep JSON inputs name the file, the place and the limit (the reproducers' expectation).
foreach(deep IN ITEMS "replay|otlp-kvlist-20000.json" "import|otlp-kvlist-20000.json"
                      "merge|part-deep.json" "replay|prometheus-deep.json")
  string(REPLACE "|" ";" deep "${deep}")
  list(GET deep 0 command)
  list(GET deep 1 file)
  execute_process(COMMAND "${CLI}" ${command} "${WORK}/${file}" TIMEOUT 60
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  math(EXPR runs "${runs} + 1")
  if(NOT code EQUAL 2 OR
     NOT err MATCHES "${file}:1:[0-9]+: maps and lists are nested deeper than 64 levels")
    message(SEND_ERROR "${command} ${file}: exit ${code}, stderr: ${err}")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK}")
message(STATUS "${runs} runs over hostile inputs, ${failures} failed")
