// json_fields.h: typed reads of a network config's optional fields. A field
// of the wrong type is the config's error (code 7), as json.Unmarshal into
// the reference's typed structs refuses it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "brisk/cni/error.h"

namespace brisk::cni::detail {

inline const nlohmann::json* field(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return nullptr;
  return &*it;
}

inline bool bool_field(const nlohmann::json& j, const char* key, bool fallback = false) {
  const nlohmann::json* v = field(j, key);
  if (!v) return fallback;
  if (!v->is_boolean()) fail(ErrorCode::invalid_config, std::string("\"") + key + "\" must be true or false");
  return v->get<bool>();
}

inline long long int_field(const nlohmann::json& j, const char* key, long long fallback = 0) {
  const nlohmann::json* v = field(j, key);
  if (!v) return fallback;
  if (!v->is_number_integer())
    fail(ErrorCode::invalid_config, std::string("\"") + key + "\" must be an integer");
  return v->get<long long>();
}

inline std::string string_field(const nlohmann::json& j, const char* key, std::string fallback = {}) {
  const nlohmann::json* v = field(j, key);
  if (!v) return fallback;
  if (!v->is_string()) fail(ErrorCode::invalid_config, std::string("\"") + key + "\" must be a string");
  return v->get<std::string>();
}

inline const nlohmann::json* object_field(const nlohmann::json& j, const char* key) {
  const nlohmann::json* v = field(j, key);
  if (v && !v->is_object()) fail(ErrorCode::invalid_config, std::string("\"") + key + "\" must be an object");
  return v;
}

inline const nlohmann::json* array_field(const nlohmann::json& j, const char* key) {
  const nlohmann::json* v = field(j, key);
  if (v && !v->is_array()) fail(ErrorCode::invalid_config, std::string("\"") + key + "\" must be a list");
  return v;
}

}  // namespace brisk::cni::detail
