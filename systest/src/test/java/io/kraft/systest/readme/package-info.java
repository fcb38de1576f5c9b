/**
 * README.md as a test: its {@code sh} blocks' commands run as written
 * ({@link io.kraft.systest.readme.ReadmeCommandsProcessTest}), its {@code text} blocks' options exist.
 */
package io.kraft.systest.readme;
