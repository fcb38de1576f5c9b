/**
 * What the client commands ({@code topics}, {@code configs}, {@code produce}, {@code consume}) share: client
 * properties, Kafka's console-tool text formats, and turning client failures into one-line messages.
 */
package io.kraft.cli.client;
