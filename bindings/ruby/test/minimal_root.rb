# frozen_string_literal: true

require "fileutils"

# The smallest root that runs some programs (by default a shell): them and
# the libraries ldd names, copied into dir, for the chroot: tests and bench.
module MinimalRoot
  def self.fill(dir, programs = ["/bin/sh"])
    files = programs + programs.flat_map { |program| `ldd #{program}`.scan(%r{(/\S+) \(0x}).flatten }.uniq
    files.each do |file|
      FileUtils.mkdir_p(File.join(dir, File.dirname(file)))
      FileUtils.cp(File.realpath(file), File.join(dir, file))
    end
  end
end
