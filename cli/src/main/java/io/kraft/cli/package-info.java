/** kraft-cli: format, start, admin, console tools, metadata shell. */
package io.kraft.cli;
