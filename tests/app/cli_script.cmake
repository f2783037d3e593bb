# What the CLI scripts (cmake -P *_cli.cmake) share: run_cli(EXPECTED_EXIT OUT_VAR ARGS...) runs
# breakerlab-cli (${CLI}) and fails the script, with its output, on another exit code.
function(run_cli expect_code out_var)
  execute_process(COMMAND "${CLI}" ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT code STREQUAL expect_code)
    message(FATAL_ERROR "breakerlab-cli ${ARGN}: exit ${code}, expected ${expect_code}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()
