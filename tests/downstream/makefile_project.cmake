# Builds examples/makefile with make and pkg-config against PREFIX.
execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(ENV{PKG_CONFIG_PATH} ${PREFIX}/lib/pkgconfig)
# The releases the project was built against, before the system's.
string(REPLACE ":" ";" upstream "$ENV{CMAKE_PREFIX_PATH}")
foreach(dir IN LISTS upstream)
  set(ENV{PKG_CONFIG_PATH} "$ENV{PKG_CONFIG_PATH}:${dir}/lib/pkgconfig")
  set(ENV{PATH} "${dir}/bin:$ENV{PATH}")
endforeach()
execute_process(
  COMMAND make -C ${EXAMPLE} OUT=${WORK}/gen BIN=${WORK}/hello
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make failed:\n${out}\n${err}")
endif()
execute_process(COMMAND ${WORK}/hello RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "hello, world \\(lucky 7, 13\\)")
  message(FATAL_ERROR "hello printed '${out}' (exit ${rc})")
endif()
