# Hostile workspaces from the command line (reproducers 04, 05 and 14 of hostile-input, and
# more of each kind): `runs` and `replay --workspace --save-run` on a FIFO and other paths that
# are not files, on damaged files, and the messages for an empty file, a folder that cannot be
# written, a schema version that is not the tables' and a -wal that is a directory. Each must
# end at once with exit 2 and the cause (or list, where listing is right), and leave damaged
# files as they were.
#   cmake -DCLI=<breakerlab-cli> -DINCIDENT=<0908 yaml> -DDAMAGED=<dir of flip-*.breakerlab>
#         -DWORK=<scratch dir> [-DSQLITE3=<shell>] -P workspace_hostile_cli.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(failures 0)

# check(NAME CODE STDERR_REGEX [STDOUT regex] [PREFIX command...] ARGS ...): PREFIX runs the
# CLI as another user (setpriv).
function(check name code err_regex)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "STDOUT" "ARGS;PREFIX")
  execute_process(COMMAND ${arg_PREFIX} ${CLI} ${arg_ARGS} RESULT_VARIABLE got
                  OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
  set(bad "")
  if(NOT got STREQUAL code)
    set(bad "exit ${got}, expected ${code}")
  elseif(NOT err MATCHES "${err_regex}")
    set(bad "stderr does not match ${err_regex}")
  elseif(DEFINED arg_STDOUT AND NOT out MATCHES "${arg_STDOUT}")
    set(bad "stdout does not match ${arg_STDOUT}")
  endif()
  if(bad)
    message(SEND_ERROR "${name}: ${bad}\n  breakerlab-cli ${arg_ARGS}\n---- stdout ----\n${out}\n---- stderr ----\n${err}")
    math(EXPR n "${failures} + 1")
    set(failures ${n} PARENT_SCOPE)
  else()
    message(STATUS "ok: ${name}")
  endif()
endfunction()

# A sound workspace with one run, to copy.
set(good "${WORK}/good.breakerlab")
execute_process(COMMAND ${CLI} replay ${INCIDENT} --workspace ${good} --save-run r1
                RESULT_VARIABLE code OUTPUT_QUIET ERROR_QUIET)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "could not make a workspace: ${code}")
endif()

# --- 05: a FIFO, and other paths that are not a file -------------------------------------------
file(MAKE_DIRECTORY "${WORK}/05")
execute_process(COMMAND mkfifo "${WORK}/05/w.breakerlab" RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "mkfifo failed")
endif()
set(fifo_said "^breakerlab-cli: [^\n]*05/w\\.breakerlab: cannot open the workspace: a FIFO, not a regular file\n$")
check(fifo_runs 2 "${fifo_said}" ARGS runs ${WORK}/05/w.breakerlab)
check(fifo_save 2 "${fifo_said}" ARGS replay ${INCIDENT} --workspace ${WORK}/05/w.breakerlab
      --save-run x)
file(CREATE_LINK "${WORK}/05/w.breakerlab" "${WORK}/05/link-to-fifo.breakerlab" SYMBOLIC)
check(fifo_link_runs 2 "link-to-fifo\\.breakerlab: cannot open the workspace: a FIFO, not a regular file"
      ARGS runs ${WORK}/05/link-to-fifo.breakerlab)
file(MAKE_DIRECTORY "${WORK}/05/dir.breakerlab")
check(directory_save 2 "dir\\.breakerlab: cannot open the workspace: a directory, not a regular file"
      ARGS replay ${INCIDENT} --workspace ${WORK}/05/dir.breakerlab --save-run x)
file(CREATE_LINK "${WORK}/05/gone.breakerlab" "${WORK}/05/dangling.breakerlab" SYMBOLIC)
check(dangling_save 2 "dangling\\.breakerlab: cannot open the workspace: a symbolic link to [^\n]*gone\\.breakerlab, which does not exist"
      ARGS replay ${INCIDENT} --workspace ${WORK}/05/dangling.breakerlab --save-run x)
if(EXISTS "${WORK}/05/gone.breakerlab")
  message(SEND_ERROR "the dangling link's target was created")
  math(EXPR failures "${failures} + 1")
endif()
execute_process(COMMAND ln -s loop.breakerlab "${WORK}/05/loop.breakerlab")
check(loop_runs 2 "loop\\.breakerlab: cannot open the workspace: Too many levels of symbolic links"
      ARGS runs ${WORK}/05/loop.breakerlab)
file(COPY_FILE "${good}" "${WORK}/05/shm.breakerlab")
execute_process(COMMAND mkfifo "${WORK}/05/shm.breakerlab-shm")
check(shm_fifo_save 2 "shm\\.breakerlab: cannot open the workspace: its shared-memory index [^\n]*shm\\.breakerlab-shm is a FIFO, not a regular file"
      ARGS replay ${INCIDENT} --workspace ${WORK}/05/shm.breakerlab --save-run x)
check(device_runs 2 "/dev/zero: cannot open the workspace: a character device, not a regular file"
      ARGS runs /dev/zero)

# --- 04: damaged files -------------------------------------------------------------------------
foreach(flip flip-0 flip-7)
  set(w "${WORK}/${flip}.breakerlab")
  file(COPY_FILE "${DAMAGED}/${flip}.breakerlab" "${w}")
  file(SHA256 "${w}" before)
  set(said "^breakerlab-cli: [^\n]*${flip}\\.breakerlab: the workspace is damaged \\(PRAGMA integrity_check: [^\n]+\\); open a backup\n$")
  check(${flip}_runs 2 "${said}" ARGS runs ${w})
  check(${flip}_runs_json 2 "${said}" ARGS runs ${w} --json)
  check(${flip}_save 2 "${said}" ARGS replay ${INCIDENT} --workspace ${w} --save-run x)
  file(SHA256 "${w}" after)
  if(NOT before STREQUAL after)
    message(SEND_ERROR "${flip}: the damaged workspace was written")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
# A truncated copy: half of the good workspace.
file(SIZE "${good}" good_size)
math(EXPR keep "${good_size} / 2 / 4096 * 4096")
execute_process(COMMAND head -c ${keep} "${good}" OUTPUT_FILE "${WORK}/truncated.breakerlab")
check(truncated_runs 2 "truncated\\.breakerlab: the workspace is damaged \\("
      ARGS runs ${WORK}/truncated.breakerlab)

# --- 14: messages that name the real cause -----------------------------------------------------
file(TOUCH "${WORK}/empty.breakerlab")
check(empty_runs 0 "^$" STDOUT "^No runs in [^\n]*empty\\.breakerlab\\."
      ARGS runs ${WORK}/empty.breakerlab)
file(SIZE "${WORK}/empty.breakerlab" empty_size)
if(NOT empty_size EQUAL 0)
  message(SEND_ERROR "runs wrote to the empty file")
  math(EXPR failures "${failures} + 1")
endif()
file(MAKE_DIRECTORY "${WORK}/wd")
file(COPY_FILE "${good}" "${WORK}/wd/w.breakerlab")
file(MAKE_DIRECTORY "${WORK}/wd/w.breakerlab-wal")
set(wal_said "wd/w\\.breakerlab: cannot open the workspace: its write-ahead log [^\n]*wd/w\\.breakerlab-wal is a directory, not a regular file")
check(wal_directory_runs 2 "${wal_said}" ARGS runs ${WORK}/wd/w.breakerlab)
check(wal_directory_save 2 "${wal_said}" ARGS replay ${INCIDENT} --workspace ${WORK}/wd/w.breakerlab --save-run x)
if(SQLITE3)
  foreach(case "v0;0;2;upgrade" "v1;1;2;upgrade")
    list(GET case 0 name)
    list(GET case 1 says)
    list(GET case 2 holds)
    list(GET case 3 can)
    set(w "${WORK}/${name}.breakerlab")
    file(COPY_FILE "${good}" "${w}")
    execute_process(COMMAND ${SQLITE3} "${w}" "PRAGMA user_version = ${says}")
    file(SHA256 "${w}" before)
    set(said "${name}\\.breakerlab: the workspace says schema version ${says} but it holds tables of schema ${holds}: not a workspace this version can ${can}")
    check(${name}_save 2 "${said}" ARGS replay ${INCIDENT} --workspace ${w} --save-run x)
    check(${name}_runs 2 "${said}" ARGS runs ${w})
    file(SHA256 "${w}" after)
    if(NOT before STREQUAL after)
      message(SEND_ERROR "${name}: changed")
      math(EXPR failures "${failures} + 1")
    endif()
  endforeach()
  set(w "${WORK}/dropped.breakerlab")
  file(COPY_FILE "${good}" "${w}")
  execute_process(COMMAND ${SQLITE3} "${w}" "DROP TABLE run_checks")
  check(dropped_table_runs 2 "dropped\\.breakerlab: the workspace says schema version 2 but it has no table run_checks: not a workspace this version can read"
        ARGS runs ${w})
endif()

# A folder the user cannot write. As root (the CI), as nobody through setpriv; otherwise the
# folder's mode is enough.
execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
find_program(SETPRIV setpriv)
set(as_user "")
set(can_test_permissions TRUE)
if(uid STREQUAL "0")
  if(SETPRIV)
    set(as_user ${SETPRIV} --reuid=65534 --regid=65534 --clear-groups)
    execute_process(COMMAND ${as_user} true RESULT_VARIABLE code)
    if(NOT code EQUAL 0)
      set(can_test_permissions FALSE)
    endif()
  else()
    set(can_test_permissions FALSE)
  endif()
endif()
# The unprivileged user must reach the CLI, the incident and the folders: a checkout under a
# private folder (mode 700) hides them, and then these cases are skipped, said so.
set(perm "${WORK}/perm")
set(perm_temp "")
if(can_test_permissions)
  file(CHMOD "${WORK}" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
       GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  file(MAKE_DIRECTORY "${perm}")
  execute_process(COMMAND ${as_user} test -x "${perm}" RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    execute_process(COMMAND mktemp -d OUTPUT_VARIABLE perm_temp OUTPUT_STRIP_TRAILING_WHITESPACE)
    file(CHMOD "${perm_temp}" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
         GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    set(perm "${perm_temp}")
  endif()
  execute_process(COMMAND ${as_user} test -x "${perm}" RESULT_VARIABLE folder_code)
  execute_process(COMMAND ${as_user} ${CLI} --version RESULT_VARIABLE cli_code OUTPUT_QUIET
                  ERROR_QUIET)
  execute_process(COMMAND ${as_user} test -r "${INCIDENT}" RESULT_VARIABLE incident_code)
  if(NOT folder_code EQUAL 0 OR NOT cli_code EQUAL 0 OR NOT incident_code EQUAL 0)
    set(can_test_permissions FALSE)
  endif()
endif()
if(can_test_permissions)
  foreach(dir ro ro2)
    file(MAKE_DIRECTORY "${perm}/${dir}")
    file(COPY_FILE "${good}" "${perm}/${dir}/w.breakerlab")
    file(CHMOD "${perm}/${dir}/w.breakerlab" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ
         WORLD_READ)
  endforeach()
  if(uid STREQUAL "0")
    execute_process(COMMAND chown 65534 "${perm}/ro2/w.breakerlab")
  endif()
  foreach(dir ro ro2)
    file(CHMOD "${perm}/${dir}" DIRECTORY_PERMISSIONS OWNER_READ OWNER_EXECUTE GROUP_READ
         GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  endforeach()
  check(readonly_folder_runs 0 "^$" STDOUT "\n1 run, newest first" PREFIX ${as_user}
        ARGS runs ${perm}/ro/w.breakerlab)
  check(readonly_folder_save 2 "ro2/w\\.breakerlab: cannot save into the workspace: cannot create [^\n]*ro2/w\\.breakerlab-wal in [^\n]*ro2: Permission denied \\(the folder is not writable\\); nothing was saved"
        PREFIX ${as_user} ARGS replay ${INCIDENT} --workspace ${perm}/ro2/w.breakerlab --save-run x)
  check(readonly_folder_new 2 "ro2/new\\.breakerlab: cannot create the workspace in [^\n]*ro2: Permission denied \\(the folder is not writable\\)"
        PREFIX ${as_user} ARGS replay ${INCIDENT} --workspace ${perm}/ro2/new.breakerlab --save-run x)
  foreach(dir ro ro2)
    file(CHMOD "${perm}/${dir}" DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  endforeach()
else()
  message(STATUS "skipped: the folder-permission cases (cannot act as an unprivileged user, or it cannot reach the CLI, the incident or a folder)")
endif()
if(perm_temp)
  file(REMOVE_RECURSE "${perm_temp}")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} hostile workspace case(s) failed")
endif()
file(REMOVE_RECURSE "${WORK}")
