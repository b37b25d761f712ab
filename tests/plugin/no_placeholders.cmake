# Regression test for a bug found in review: a Printer variable's value held
# "$descriptor$", which the Printer does not expand, so every generated
# table said "NULL /* $descriptor$.message_init */". No generated file may
# contain a "$name$" placeholder.
#   cmake -DGEN_DIR=.. -P no_placeholders.cmake
file(GLOB_RECURSE files ${GEN_DIR}/*.pb-iter.c ${GEN_DIR}/*.pb-iter.h)
if(NOT files)
  message(FATAL_ERROR "no generated files under ${GEN_DIR}")
endif()
set(bad)
foreach(f IN LISTS files)
  file(STRINGS ${f} lines REGEX "\\$[a-z_]+\\$")
  if(lines)
    list(GET lines 0 first)
    list(APPEND bad "${f}: ${first}")
  endif()
endforeach()
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  message(FATAL_ERROR "unexpanded placeholders:\n${bad}")
endif()
list(LENGTH files n)
message(STATUS "${n} generated files without placeholders")
