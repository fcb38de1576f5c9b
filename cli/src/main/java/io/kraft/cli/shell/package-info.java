/**
 * {@code kraft-cli metadata-shell}: a stopped node's metadata, loaded offline from its latest snapshot and the
 * committed metadata log after it ({@link io.kraft.cli.shell.MetadataLoader}), shown as a tree of directories and
 * files ({@link io.kraft.cli.shell.MetadataTree}) that {@link io.kraft.cli.shell.ShellSession} walks with
 * {@code ls}, {@code cd}, {@code cat}, {@code tree} and {@code find}, like Apache Kafka's metadata shell.
 */
package io.kraft.cli.shell;
