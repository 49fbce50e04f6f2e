/* SPDX-License-Identifier: GPL-2.0-or-later OR BSD-2-Clause */
/*
 * Stress (run-debug.sh only): a fork and exec storm under the sampler.
 * The parent keeps up to four children alive, each made in turn by
 * fork() then exec() of this program with --child, by fork() alone (the
 * child runs on in a copy of the parent's mm, then exits), or by
 * posix_spawn() (a vfork-like clone: the child runs in the parent's mm
 * until its exec), and does work of its own in between (fe_mid ->
 * fe_leaf).  A child with --child does a little work (fe_mid -> fe_leaf)
 * and exits.  perf follows the children: their samples are walked in new,
 * copied and shared mms that exit while others are walked.
 * Runs argv[last] seconds of wall time (default 3); exits 0 when every
 * child exited 0.
 */
#include <spawn.h>
#include <sys/wait.h>
#include "stress.h"

volatile unsigned long sft_sink;

SFT_LEAF(, fe_leaf, 3)
SFT_LEVEL(, fe_mid, fe_leaf)

extern char **environ;

static char self[4096];
static unsigned long made[3], failed;

/* Reaps the children that have exited; with ALL, waits for all of them,
 * with ONE, for one at least. */
enum { ANY, ONE, ALL };

static void reap(int how, int *running)
{
	int st, opt = how == ANY ? WNOHANG : 0;
	pid_t p;

	while (*running > 0 && (p = waitpid(-1, &st, opt)) > 0) {
		(*running)--;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			failed++;
		if (how == ONE)
			opt = WNOHANG;
	}
}

NOINLINE pid_t fe_child(unsigned long i)
{
	char *args[] = { self, "--child", NULL };
	pid_t p;

	switch (i % 3) {
	case 0:
		p = fork();
		if (p == 0) {
			execv(self, args);
			_exit(127);
		}
		return p;
	case 1:
		p = fork();
		if (p == 0) {
			sft_sink += fe_mid(5000);
			_exit(0);
		}
		return p;
	default:
		if (posix_spawn(&p, self, NULL, NULL, args, environ))
			return -1;
		return p;
	}
}

int main(int argc, char **argv)
{
	double deadline;
	unsigned long i = 0;
	int running = 0;
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "--child")) {
		sft_sink += fe_mid(5000);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		perror("readlink /proc/self/exe");
		return 1;
	}
	self[n] = '\0';
	deadline = sft_now() + sft_wall_budget(argc, argv);
	while (sft_now() < deadline) {
		pid_t p = fe_child(i);

		if (p < 0) {
			perror("fork");
			failed++;
		} else {
			made[i % 3]++;
			running++;
		}
		i++;
		sft_sink += fe_mid(2000);
		reap(running >= 4 ? ONE : ANY, &running);
	}
	reap(ALL, &running);
	printf("forkexec: %lu fork+exec, %lu fork, %lu posix_spawn children, %lu failed\n",
	       made[0], made[1], made[2], failed);
	return failed ? 1 : 0;
}
