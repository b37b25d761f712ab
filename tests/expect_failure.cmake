# expect_failure(<label> <regex> <command>...): runs a command that must fail,
# with a non-zero exit and output (stdout and stderr together, in `output`
# afterwards) matching <regex>. PASS_REGULAR_EXPRESSION alone would pass a
# program that printed the message and exited 0.
#
# As a script, for add_test:
#   cmake "-DCOMMAND=prog;arg;..." [-DENV=NAME=value] -DEXPECT=regex -P expect_failure.cmake
function(expect_failure label expect)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${label}: exited 0, expected a failure; printed:\n${out}")
  endif()
  if(NOT out MATCHES "${expect}")
    message(FATAL_ERROR "${label}: exit ${rc}, but the output does not match '${expect}':\n${out}")
  endif()
  set(output "${out}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(ENV)
    set(COMMAND ${CMAKE_COMMAND} -E env ${ENV} ${COMMAND})
  endif()
  expect_failure("${COMMAND}" "${EXPECT}" ${COMMAND})
endif()
