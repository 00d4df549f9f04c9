/* gentrace.h - placeholder */
#ifndef BFS_GENTRACE_H
#define BFS_GENTRACE_H
#endif
