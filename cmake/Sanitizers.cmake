# Sanitizer and fuzzing builds (docs/cli.md, "Sanitizer and fuzzing builds"). Both
# are off by default; the normal build does not change.
#
#   -DSEGTIME_SANITIZE="address;undefined"   the whole project's C++ with
#       ASan + UBSan (a UBSan report stops the program). Needs clang-19 as
#       the C++ compiler and libclang-rt-19-dev. The sanitizer runtime is
#       the shared one (-shared-libsan), so that the plugins, loaded into an
#       uninstrumented clang-19 or opt-19, can use it when it is preloaded
#       (scripts/sanitize.sh). The component-timing runtime (C, linked into
#       the user's programs) stays uninstrumented.
#   -DSEGTIME_FUZZ=ON   libFuzzer harnesses of the file readers
#       (test/fuzz, scripts/fuzz.py): everything with
#       -fsanitize=fuzzer-no-link,address,undefined, the harnesses with
#       -fsanitize=fuzzer,address,undefined.
set(SEGTIME_SANITIZE "" CACHE STRING "Sanitizers for the whole build, e.g. address;undefined")
option(SEGTIME_FUZZ "Build the libFuzzer harnesses of the file readers (clang only)" OFF)

if(SEGTIME_SANITIZE OR SEGTIME_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "SEGTIME_SANITIZE and SEGTIME_FUZZ need clang (-DCMAKE_CXX_COMPILER=clang++-19)")
  endif()
  set(_san ${SEGTIME_SANITIZE})
  if(SEGTIME_FUZZ)
    list(APPEND _san fuzzer-no-link address undefined)
  endif()
  list(REMOVE_DUPLICATES _san)
  list(JOIN _san "," _san)
  # -fno-sanitize=vptr: the vptr check reports std::shared_ptr's control
  # block made in libraries built without it (LLVM, GiNaC, yaml-cpp), whose
  # type information is not the instrumented code's: a false positive across
  # shared objects (seen on every plugin run inside clang-19).
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${_san};-fno-sanitize=vptr;-fno-sanitize-recover=undefined;-fno-omit-frame-pointer>")
  string(REPLACE "fuzzer-no-link," "" _san_link "${_san}")
  string(REPLACE ",fuzzer-no-link" "" _san_link "${_san_link}")
  add_link_options(-fsanitize=${_san_link})
  if(SEGTIME_SANITIZE AND NOT SEGTIME_FUZZ)
    # The shared runtime, found through the rpath; libFuzzer needs the static one.
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
                    OUTPUT_VARIABLE _asan_rt OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT IS_ABSOLUTE "${_asan_rt}")
      message(FATAL_ERROR "${CMAKE_CXX_COMPILER} has no sanitizer runtime: install libclang-rt-19-dev")
    endif()
    get_filename_component(_asan_dir ${_asan_rt} DIRECTORY)
    add_link_options(-shared-libsan -Wl,-rpath,${_asan_dir})
  endif()
endif()
