#ifndef EMBER_EMBERCTL_VERIFY_H
#define EMBER_EMBERCTL_VERIFY_H
/* `emberctl verify FILE|NAME...`: ember-init's unit parser run offline (no PID 1 needed).
 * argv[0] is "verify"; returns the exit code (man/emberctl.8.scd, "verify"). */
int verify_main(int argc, char **argv);
#endif
