# pbci_link_buf_align(TARGET): adds buf_align.c to TARGET built as C99 and as
# C11 (pbci_test_buf_align_c99 ... _c11), for runtime_test to compare the
# buffer's alignment in each language mode with C++'s. Shared by the tests'
# build and the cross test's.
function(pbci_link_buf_align target)
  foreach(std 99 11)
    add_library(buf-align-c${std} OBJECT ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/buf_align.c)
    target_link_libraries(buf-align-c${std} PRIVATE protobuf-c-iter::runtime)
    set_target_properties(buf-align-c${std} PROPERTIES C_STANDARD ${std}
                          C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)
    target_compile_definitions(buf-align-c${std} PRIVATE PBCI_TEST_C_STD=c${std})
    target_compile_options(buf-align-c${std} PRIVATE ${PROTOBUF_C_ITER_WARNINGS})
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:buf-align-c${std}>)
  endforeach()
endfunction()
