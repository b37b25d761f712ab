# Regression: protobuf-c 1.5's CMake package exports, with libprotobuf-c,
# the include directory of the protobuf it was built against; built against
# protobuf 33.6 and used with 36.0 (compat entry D), those headers shadowed
# 36.0's and the C++ code did not compile. protobuf-c::protobuf-c may carry
# no directory of google/protobuf headers but the protobuf found's.
#   cmake "-DDIRS=a|b" -DPROTOBUF_INCLUDE=dir -P foreign_protobuf_headers.cmake
string(REPLACE "|" ";" dirs "${DIRS}")
foreach(dir IN LISTS dirs)
  if(EXISTS "${dir}/google/protobuf/message.h")
    get_filename_component(real "${dir}" REALPATH)
    if(NOT real STREQUAL PROTOBUF_INCLUDE)
      message(FATAL_ERROR "protobuf-c::protobuf-c includes ${dir}, another "
                          "protobuf's headers than ${PROTOBUF_INCLUDE}")
    endif()
  endif()
endforeach()
message(STATUS "protobuf-c::protobuf-c's include directories: ${dirs}")
