/**
 * Typed configuration, the project's one configuration mechanism: {@link io.kraft.config.ConfigDef}
 * defines keys (type, default, validator, importance, doc) with Kafka's names; parsing yields an
 * immutable {@link io.kraft.config.ParsedConfig} that knows each value's
 * {@link io.kraft.config.ConfigSource}. {@link io.kraft.config.LogConfigs} and
 * {@link io.kraft.config.TopicConfigs} define the broker and topic log settings, and
 * {@link io.kraft.config.TopicConfigResolver} combines them into a topic's effective settings.
 */
package io.kraft.config;
