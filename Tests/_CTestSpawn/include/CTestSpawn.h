#ifndef FACEPIPE_C_TEST_SPAWN_H
#define FACEPIPE_C_TEST_SPAWN_H

#include <sys/types.h>

/// Starts `path` with `argv` and `envp` (NULL-terminated) in `directory`
/// (NULL: this process's), its standard input, output and error on the
/// descriptors given, and every other descriptor of this process closed in
/// the child (glibc's posix_spawn_file_actions_addclosefrom_np), no signal
/// blocked and every signal's action the default. 0 and the child's id in
/// `pid`, or an errno value.
int facepipe_test_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[],
                        const char *directory, int input, int output, int error);

/// A pipe whose two ends close on exec (pipe2 with O_CLOEXEC): 0, or -1 and errno.
int facepipe_test_pipe(int ends[2]);

#endif
