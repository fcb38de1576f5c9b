/**
 * The build-time generator of kraft's typed protocol messages: JSON spec files (one per request or
 * response body, or per versioned data layout such as an internal topic's record) are parsed ({@link io.kraft.generator.SpecParser}), validated
 * ({@link io.kraft.generator.SpecValidator}) and turned into Java classes
 * ({@link io.kraft.generator.MessageGenerator}).
 */
package io.kraft.generator;
