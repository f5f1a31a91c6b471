// SPDX-License-Identifier: GPL-2.0
/*
 * chatbench-hog: a CPU hog with a name you choose, to disturb a run on
 * purpose and see the diagnosis name it.  One busy thread per CPU (or
 * --threads N), every thread named NAME so that it shows up as that task
 * in the tracer, top and ps; it ends by itself after --seconds.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"Usage: chatbench-hog [OPTIONS]\n"
	"Burn CPU in N threads named NAME at nice V for S seconds, then exit:\n"
	"a disturbance with a name of your choice, for chat_c's diagnosis to\n"
	"find.  The benchmark runs hundreds of threads, so a hog at nice 0\n"
	"gets a small share; -10 weighs like ten of them.\n"
	"\n"
	"  -n, --name NAME        the threads' name (chb_hog; 15 bytes kept)\n"
	"  -s, --seconds S        how long to burn (10)\n"
	"  -t, --threads N        how many threads (one per online CPU)\n"
	"  -N, --nice V           their nice value (0; below 0 needs root)\n"
	"  -h, --help             this text\n"
	"\n"
	"Example, during a run:\n"
	"  chatbench-hog --name noisy_neighbour --nice -10 --seconds 3 &\n"
	"\n"
	"Exit status: 0 after S seconds, 1 when a thread cannot start, 2 on\n"
	"bad usage.\n";

static volatile int stop;
static char name[16] = "chb_hog";
static int nice_value;

static void *burn(void *arg)
{
	volatile unsigned long x = 0;

	(void)arg;
	prctl(PR_SET_NAME, name);
	/* Per thread: on Linux the nice value belongs to the thread. */
	if (nice_value &&
	    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice_value))
		perror("chatbench-hog: setpriority");
	while (!stop)
		x++;
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "seconds", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 't' },
		{ "nice", required_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	long threads = sysconf(_SC_NPROCESSORS_ONLN), i;
	double seconds = 10;
	pthread_t *t;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "n:s:t:N:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			snprintf(name, sizeof(name), "%s", optarg);
			break;
		case 's':
			seconds = strtod(optarg, &end);
			if (*end || seconds <= 0 || seconds > 86400) {
				fprintf(stderr, "chatbench-hog: bad --seconds '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 't':
			threads = strtol(optarg, &end, 10);
			if (*end || threads < 1 || threads > 1024) {
				fprintf(stderr, "chatbench-hog: bad --threads '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'N':
			nice_value = (int)strtol(optarg, &end, 10);
			if (*end || nice_value < -20 || nice_value > 19) {
				fprintf(stderr, "chatbench-hog: bad --nice '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	prctl(PR_SET_NAME, name);
	t = calloc((size_t)threads, sizeof(*t));
	if (!t)
		return 1;
	for (i = 0; i < threads; i++) {
		int err = pthread_create(&t[i], NULL, burn, NULL);

		if (err) {
			fprintf(stderr, "chatbench-hog: thread %ld: %s\n", i + 1,
				strerror(err));
			return 1;
		}
	}
	usleep((useconds_t)(seconds * 1e6));
	stop = 1;
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}
