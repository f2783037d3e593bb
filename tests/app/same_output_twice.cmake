# Runs `replay --json` twice (and once more with a what-if) and fails unless the two plain runs
# print byte-identical reports.
foreach(run a b)
  execute_process(COMMAND ${CLI} replay ${INCIDENT} --json --no-incident-expect
                  OUTPUT_VARIABLE out_${run} RESULT_VARIABLE code_${run})
  if(NOT code_${run} EQUAL 0)
    message(FATAL_ERROR "replay exited with ${code_${run}}")
  endif()
endforeach()
string(LENGTH "${out_a}" length)
if(length LESS 1000)
  message(FATAL_ERROR "suspiciously short report (${length} bytes)")
endif()
if(NOT out_a STREQUAL out_b)
  message(FATAL_ERROR "two replays of the same incident printed different reports")
endif()
execute_process(COMMAND ${CLI} replay ${INCIDENT} --json --no-incident-expect --whatif early-probe
                OUTPUT_VARIABLE out_c)
if(out_a STREQUAL out_c)
  message(FATAL_ERROR "the early-probe what-if printed the same report as the deployed config")
endif()
message(STATUS "identical reports of ${length} bytes")
