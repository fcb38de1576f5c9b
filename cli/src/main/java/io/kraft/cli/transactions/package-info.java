/**
 * What {@code kraft-cli transactions} computes from the Kafka Admin client's answers: its tables (in the columns of
 * Kafka's {@code kafka-transactions.sh}), the open transactions that are hanging, and the one-line errors.
 */
package io.kraft.cli.transactions;
