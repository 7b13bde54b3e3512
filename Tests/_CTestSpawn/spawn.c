#define _GNU_SOURCE
#include "CTestSpawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>
#include <stddef.h>

int facepipe_test_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                        const char *directory, int input, int output, int error) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) return status;
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    // The child starts as from a shell: no signal blocked (this thread's
    // mask is the test runner's) and every signal's default action (an
    // ignored SIGPIPE here would stay ignored across exec).
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    if (status == 0) status = posix_spawnattr_setsigmask(&attributes, &none);
    if (status == 0) status = posix_spawnattr_setsigdefault(&attributes, &all);
    if (status == 0) status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, input, 0);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, output, 1);
    if (status == 0) status = posix_spawn_file_actions_adddup2(&actions, error, 2);
    if (status == 0) status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (status == 0 && directory != NULL) status = posix_spawn_file_actions_addchdir_np(&actions, directory);
    if (status == 0) status = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

int facepipe_test_pipe(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}
