// brisk/result.h: errors as values.
//
// Every fallible call in brisk returns Result<T, E>: either a value or an
// error that says what failed (the syscall or operation), why (errno) and on
// what (a path, a program, an interface). Nothing reports through the global
// errno, nothing prints, nothing exits.
//
//   brisk::Result<brisk::UniqueFd> fd = brisk::sys::open("/etc/passwd", O_RDONLY);
//   if (!fd) return fd.error();          // propagate
//   read_all(*fd);                       // or use it
//   auto fd2 = brisk::sys::open(p, O_RDONLY).value();  // throws brisk::SystemError
//
// value() on an error throws the exception type that throw_error() selects for
// E (found by argument-dependent lookup), so every error type decides its own
// typed exception.
#pragma once

#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>

#include "brisk/export.h"

namespace brisk {

// An operating-system failure with its context.
struct BRISK_EXPORT SysError {
  int code = 0;           // errno value, always positive
  const char* call = "";  // syscall or operation that failed; static storage
  std::string object{};   // what it acted on (path, program, device); may be empty
  std::string detail{};   // extra explanation; may be empty

  // "open /etc/shadow: Permission denied", plus ": detail" when there is one.
  std::string message() const;
};

// The exception thrown for a SysError by Result::value().
class BRISK_EXPORT SystemError : public std::runtime_error {
 public:
  explicit SystemError(SysError error);
  const SysError& error() const noexcept { return error_; }
  std::error_code code() const noexcept { return {error_.code, std::generic_category()}; }

 private:
  SysError error_;
};

[[noreturn]] BRISK_EXPORT BRISK_EXPORT void throw_error(const SysError& error);

// Builds the SysError for the current errno; for wrappers of libc calls.
BRISK_EXPORT SysError last_error(const char* call, std::string object = {});

// Marks a value as the error alternative when constructing a Result.
template <class E>
struct Failure {
  E error;
};
template <class E>
Failure<std::decay_t<E>> fail(E&& error) {
  return {std::forward<E>(error)};
}

template <class T, class E = SysError>
class [[nodiscard]] Result {
 public:
  using value_type = T;
  using error_type = E;

  template <class U = T>
  requires(std::is_constructible_v<T, U&&> && !std::is_same_v<std::remove_cvref_t<U>, Result>)
      // NOLINTNEXTLINE(bugprone-forwarding-reference-overload): constrained above
      Result(U&& value)
      : state_(std::in_place_index<0>, std::forward<U>(value)) {}
  template <class F>
  requires std::is_constructible_v<E, F&&> Result(Failure<F> failure)
      : state_(std::in_place_index<1>, std::move(failure.error)) {}
  Result(E error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & {
    check();
    return std::get<0>(state_);
  }
  const T& value() const& {
    check();
    return std::get<0>(state_);
  }
  T&& value() && {
    check();
    return std::get<0>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  template <class U>
  T value_or(U&& fallback) const& {
    return ok() ? std::get<0>(state_) : static_cast<T>(std::forward<U>(fallback));
  }

  // Only valid when !ok().
  const E& error() const& { return std::get<1>(state_); }
  E& error() & { return std::get<1>(state_); }
  E&& error() && { return std::get<1>(std::move(state_)); }

 private:
  void check() const {
    if (!ok()) throw_error(std::get<1>(state_));
  }
  std::variant<T, E> state_;
};

template <class E>
class [[nodiscard]] Result<void, E> {
 public:
  using value_type = void;
  using error_type = E;

  Result() = default;
  template <class F>
  requires std::is_constructible_v<E, F&&> Result(Failure<F> failure)
      : error_(std::move(failure.error)), failed_(true) {}
  Result(E error) : error_(std::move(error)), failed_(true) {}

  bool ok() const noexcept { return !failed_; }
  explicit operator bool() const noexcept { return ok(); }
  void value() const {
    if (failed_) throw_error(error_);
  }
  const E& error() const& { return error_; }
  E& error() & { return error_; }
  E&& error() && { return std::move(error_); }

 private:
  E error_{};
  bool failed_ = false;
};

// Propagates an error from an expression returning Result, GCC/Clang only:
//   int fd = BRISK_TRY(sys::open(path, O_RDONLY)).release();
#define BRISK_TRY(expr)                                                  \
  ({                                                                     \
    auto brisk_try_result_ = (expr);                                     \
    if (!brisk_try_result_) return std::move(brisk_try_result_).error(); \
    std::move(brisk_try_result_).value();                                \
  })

}  // namespace brisk
