/** {@code kraft-cli configs} for client quotas: users, clients and ips, as kafka-configs.sh handles them. */
package io.kraft.cli.quotas;
