/*
 * page_touch: what reading one byte at a random place of freshly mapped files costs, the floor of
 * a probe's first pass over tables read in place (docs/benchmarks.md, *Packed blocks: depth probes
 * read in place*). It maps each FILE read-only, as egtb's MappedFile and Fathom do, then reads
 * COUNT bytes at random places of random files (the first pass: each read of a page not yet mapped
 * is a page fault, which maps the pages around it that the page cache holds too), then COUNT more
 * at other random places (most of their pages now mapped), and prints the nanoseconds per read of
 * each pass. Nothing here uses egtb.
 *
 *   cc -O2 -o page_touch bench/page_touch.c
 *   page_touch 66028 tables/KQRkr.egtb tables/KRBkr.egtb ...
 *     -> "files 5, 825 MB; first pass 5629 ns a read, second 889 ns"
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { MaxFiles = 256 };

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

/* xorshift64: the same places on every run. */
static uint64_t next_random(uint64_t* state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* Reads `count` bytes at random places of the files; nanoseconds per read. */
static double pass(const uint8_t** data, const size_t* sizes, int files, long count, uint64_t* state,
                   unsigned* sum) {
  const double start = now_ns();
  for (long k = 0; k < count; ++k) {
    const int f = (int)(next_random(state) % (uint64_t)files);
    *sum += data[f][next_random(state) % sizes[f]];
  }
  return (now_ns() - start) / (double)count;
}

int main(int argc, char** argv) {
  if (argc < 3 || argc - 2 > MaxFiles) {
    fprintf(stderr, "usage: page_touch COUNT FILE... (at most %d files)\n", MaxFiles);
    return 2;
  }
  const long count = strtol(argv[1], NULL, 10);
  if (count <= 0) {
    fprintf(stderr, "page_touch: COUNT must be a positive number, not %s\n", argv[1]);
    return 2;
  }
  const int files = argc - 2;
  const uint8_t* data[MaxFiles];
  size_t sizes[MaxFiles];
  double bytes = 0;
  for (int f = 0; f < files; ++f) {
    const int fd = open(argv[f + 2], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
      fprintf(stderr, "page_touch: cannot read %s\n", argv[f + 2]);
      return 1;
    }
    sizes[f] = (size_t)st.st_size;
    data[f] = mmap(NULL, sizes[f], PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (data[f] == MAP_FAILED) {
      fprintf(stderr, "page_touch: cannot map %s\n", argv[f + 2]);
      return 1;
    }
    bytes += (double)sizes[f];
  }
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  unsigned sum = 0;
  const double first = pass(data, sizes, files, count, &state, &sum);
  const double second = pass(data, sizes, files, count, &state, &sum);
  printf("files %d, %.0f MB; first pass %.0f ns a read, second %.0f ns (%u)\n", files, bytes / 1e6, first,
         second, sum & 1);
  return 0;
}
