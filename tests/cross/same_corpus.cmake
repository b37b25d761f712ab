# Writes the cross test's corpus again and compares it with the first one:
# both runs must write the same bytes.
#   cmake -DWRITER=cross_write_corpus -DFIRST=file -DSECOND=file
#         [-DDATASETS=dir] -P same_corpus.cmake
execute_process(COMMAND ${WRITER} ${SECOND} ${DATASETS} RESULT_VARIABLE rc
                OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${WRITER} ${SECOND} failed (${rc})")
endif()
file(SHA256 ${FIRST} first)
file(SHA256 ${SECOND} second)
if(NOT first STREQUAL second)
  message(FATAL_ERROR "${FIRST} and ${SECOND} differ: the corpus changes "
                      "from one run to the next")
endif()
file(REMOVE ${SECOND})
