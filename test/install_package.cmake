# cmake -P test: install segtime into a temporary prefix, then configure and
# build test/Inputs/package, a project that uses find_package(segtime) and
# segtime_add_plugin, with clang 19; check that the plugin ran (formulas
# printed, .seg.json written), that the instrumented program links the
# installed runtime, and that the installed segtime finds its bundled machine.
#   cmake -DBUILD_DIR=build -DSOURCE_DIR=. -DWORK_DIR=/tmp/x -DCLANG=clang-19 \
#         -P test/install_package.cmake
foreach(v BUILD_DIR SOURCE_DIR WORK_DIR CLANG)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "install_package.cmake: -D${v}= is required")
  endif()
endforeach()
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
# No user machine: the test must not read or write the real home directory.
set(ENV{XDG_DATA_HOME} ${WORK_DIR}/xdg)
unset(ENV{SEGTIME_MACHINE_PATH})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect text what)
  string(FIND "${out}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: expected '${text}' in:\n${out}")
  endif()
endfunction()

run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f bin/segtime lib/segtime/segtime.so lib/segtime/segtime-passes.so lib/libsegtime-rt.a
          include/segtime_ct.h share/segtime/machines/t800.yaml share/doc/segtime/cli.md
          lib/cmake/segtime/segtimeConfig.cmake)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()

run("configuring the package user" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/test/Inputs/package
    -B ${WORK_DIR}/project -G Ninja -DCMAKE_C_COMPILER=${CLANG} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release)
run("building the package user" ${CMAKE_COMMAND} --build ${WORK_DIR}/project -v)
expect("-fplugin=${prefix}/lib/segtime/segtime.so" "the build uses the installed plugin")
expect("-fplugin-arg-segtime-targets=compile" "TARGETS")
expect("segtime: dot (" "the plugin's formulas")
expect("POC   t on t800 = " "MACHINE t800")
expect("phase" "ARGS timing")

set(seg ${WORK_DIR}/project/CMakeFiles/kernel.dir/kernel.c.seg.json)
if(NOT EXISTS ${seg})
  message(FATAL_ERROR "no SEG file ${seg}")
endif()
file(READ ${seg} out)
expect("\"x86_64" "an ICC target in ${seg}")

set(ENV{SEGTIME_CT_FILE} ${WORK_DIR}/kernel.ct.json)
run("the instrumented program" ${WORK_DIR}/project/kernel_ct)
if(NOT EXISTS ${WORK_DIR}/kernel.ct.json)
  message(FATAL_ERROR "the instrumented program wrote no ${WORK_DIR}/kernel.ct.json")
endif()

run("the installed segtime predict" ${prefix}/bin/segtime predict ${seg} --machine t800 -p n=100)
expect("machine: t800 (${prefix}/share/segtime/machines/t800.yaml)" "the bundled machine")
message(STATUS "install + find_package(segtime) + build: ok (${WORK_DIR})")
