/** The options of {@code kraft-cli acls} turned into the Admin client's ACL bindings and filters. */
package io.kraft.cli.acls;
