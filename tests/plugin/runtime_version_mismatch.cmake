# A generated file compiled against a runtime header of another version
# stops at its #error, naming the fix, instead of building silently with
# tables the runtime reads differently.
#   cmake -DCC=cc -DSOURCE=x.pb-iter.c -DINCLUDES="gen;runtime/include" -DOUT=dir -P ...
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/protobuf-c-iter)
list(GET INCLUDES -1 runtime_include)
file(READ ${runtime_include}/protobuf-c-iter/protobuf-c-iter.h header)
string(REGEX REPLACE "#define PROTOBUF_C_ITER_VERSION_NUMBER [0-9]+"
       "#define PROTOBUF_C_ITER_VERSION_NUMBER 999999" other "${header}")
if(other STREQUAL header)
  message(FATAL_ERROR "no PROTOBUF_C_ITER_VERSION_NUMBER in the runtime header")
endif()
file(WRITE ${OUT}/protobuf-c-iter/protobuf-c-iter.h "${other}")
set(flags -I${OUT})
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags -I${dir})
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/../expect_failure.cmake)
expect_failure("${CC} against runtime version 999999" "regenerate with the runtime's protoc-gen-iter"
  ${CC} ${flags} -c ${SOURCE} -o ${OUT}/x.o)
