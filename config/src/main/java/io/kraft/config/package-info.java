/** Typed configuration: names, types, defaults, validation, docs. */
package io.kraft.config;
