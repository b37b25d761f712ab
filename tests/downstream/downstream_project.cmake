# Configures, builds and runs a downstream example from a private copy, then
# checks that building again regenerates nothing and that touching a .proto
# (and, with PROJECT_COPY, the plugin's source) regenerates the code.
#   -DEXAMPLE=dir -DWORK=dir -DEXE=name [-DCONFIGURE_ARGS=a;b] [-DPROJECT_COPY=src]
#   [-DGENERATOR=name] (CMake's generator; default Unix Makefiles)
#   -DPROTO=a proto of the example (relative to it) to touch
#   -DGENERATED=a generated file (relative to the output dir) that must follow
#   [-DEXPECT=regex]
set(src ${WORK}/src)
set(build ${WORK}/build)
execute_process(COMMAND ${CMAKE_COMMAND} -E rm -rf ${WORK})
file(COPY ${EXAMPLE}/ DESTINATION ${src})
set(extra)
if(GENERATOR)
  list(APPEND extra -G ${GENERATOR})
endif()
if(PROJECT_COPY)
  # add_subdirectory users: a private copy of the project, so that touching
  # its plugin leaves the real tree alone.
  foreach(part CMakeLists.txt cmake plugin runtime)
    file(COPY ${PROJECT_COPY}/${part} DESTINATION ${WORK}/project)
  endforeach()
  list(APPEND extra -DPROTOBUF_C_ITER_SOURCE_DIR=${WORK}/project)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/run.cmake)

# Release, as users build, without optimisation (see install_project.cmake).
run(${CMAKE_COMMAND} -S ${src} -B ${build} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_C_FLAGS_RELEASE=-DNDEBUG -DCMAKE_CXX_FLAGS_RELEASE=-DNDEBUG
    ${CONFIGURE_ARGS} ${extra})
run(${CMAKE_COMMAND} --build ${build} -j 2)
run(${build}/${EXE})
message(STATUS "${EXE}: ${out}")
if(EXPECT AND NOT out MATCHES "${EXPECT}")
  message(FATAL_ERROR "${EXE} printed '${out}', expected '${EXPECT}'")
endif()

# Regeneration: the generated file must be rewritten after a touch.
file(GLOB_RECURSE found ${build}/*/${GENERATED})
if(NOT found)
  message(FATAL_ERROR "no generated ${GENERATED} under ${build}")
endif()
list(GET found 0 generated)

# Builds again a second later, after touching the files after `what` (none
# for "nothing changed"), and checks that the generated file was rewritten
# if and only if `regenerates`.
function(rebuild regenerates what)
  file(TIMESTAMP ${generated} before "%s")
  execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
  if(ARGN)
    execute_process(COMMAND ${CMAKE_COMMAND} -E touch ${ARGN})
  endif()
  run(${CMAKE_COMMAND} --build ${build} -j 2)
  file(TIMESTAMP ${generated} after "%s")
  if(regenerates AND NOT after GREATER before)
    message(FATAL_ERROR "touching ${what} did not regenerate ${generated}")
  elseif(NOT regenerates AND NOT after EQUAL before)
    message(FATAL_ERROR "building again, with ${what}, regenerated ${generated}")
  endif()
endfunction()
# Nothing changed, nothing regenerated. Regression.NinjaRegeneratedOnEveryBuild:
# Ninja took protoc's dependency file, which names another output first, for
# out of date at every build. Regression.SpaceInPathBrokeTheDependencyFile: its
# paths with a space, unescaped, named files that never exist, so an edit to
# an imported proto regenerated nothing (or every build regenerated all).
rebuild(NO "nothing changed")
rebuild(YES "the proto" ${src}/${PROTO})
if(PROJECT_COPY)
  rebuild(YES "the plugin's source" ${WORK}/project/plugin/main.cc)
endif()
