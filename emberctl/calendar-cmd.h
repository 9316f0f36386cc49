#ifndef EMBERCTL_CALENDAR_CMD_H
#define EMBERCTL_CALENDAR_CMD_H
/* emberctl calendar EVENT... [--iterations N] [--json]: what systemd-analyze calendar
 * shows, offline (lib/calendar.c; docs/calendar.md). argv[0] is "calendar". */
int calendar_main(int argc, char **argv);
#endif
