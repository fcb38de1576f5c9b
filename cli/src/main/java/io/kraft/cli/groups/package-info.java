/**
 * {@code kraft-cli groups}: consumer-group administration through the kafka-clients {@code Admin}, with the
 * options and columns of Kafka's {@code kafka-consumer-groups.sh}. {@link io.kraft.cli.groups.ConsumerGroupAdmin}
 * asks the cluster; {@link io.kraft.cli.groups.OffsetResetStrategy} decides new offsets from what it learned
 * (pure, so the rules are tested without a broker); {@link io.kraft.cli.groups.TextTable} aligns the output.
 */
package io.kraft.cli.groups;
