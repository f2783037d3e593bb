# `gate --markdown FILE --json`: the JSON on stdout, the Markdown in the file, the same Markdown
# `gate` prints without --json; and three incidents replayed on several threads report in the
# order given, byte for byte the same twice.
#   cmake -DCLI=<breakerlab-cli> -DFIXTURES=<tests/app/fixtures> -DWORK=<scratch dir> -P gate_cli.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(base "${FIXTURES}/gate/timeout-30s.yaml")
set(head "${FIXTURES}/gate/timeout-2s.yaml")

include(${CMAKE_CURRENT_LIST_DIR}/cli_script.cmake)

set(md "${WORK}/gate.md")
run_cli(0 json gate --base ${base} --head ${head} --markdown ${md} --json
        inc-2026-0912-payment-timeout)
string(JSON format GET "${json}" format)
string(JSON passed GET "${json}" passed)
string(JSON key GET "${json}" incidents 0 config_changes 0 key)
if(NOT format STREQUAL "breakerlab-gate/1" OR NOT passed STREQUAL "ON" OR NOT key STREQUAL "timeout.attempt")
  message(FATAL_ERROR "gate --json: ${json}")
endif()
file(READ "${md}" written)
run_cli(0 printed gate --base ${base} --head ${head} inc-2026-0912-payment-timeout)
if(NOT written STREQUAL printed OR NOT written MATCHES "^<!-- breakerlab-gate -->\n## ")
  message(FATAL_ERROR "--markdown wrote:\n${written}\ngate printed:\n${printed}")
endif()

set(incidents inc-2026-0908-pricing inc-2026-0912-payment-timeout teach-metastable-retries)
run_cli(1 first gate --base ${base} --head ${head} ${incidents})
run_cli(1 second gate --base ${base} --head ${head} ${incidents})
if(NOT first STREQUAL second)
  message(FATAL_ERROR "two runs differ:\n${first}\n----\n${second}")
endif()
string(FIND "${first}" "INC-2026-0908 " at_0908)
string(FIND "${first}" "INC-2026-0912 " at_0912)
string(FIND "${first}" "TEACH-METASTABLE " at_teach)
if(at_0908 LESS 0 OR NOT at_0908 LESS at_0912 OR NOT at_0912 LESS at_teach)
  message(FATAL_ERROR "incidents out of the order given:\n${first}")
endif()
