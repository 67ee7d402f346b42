# embed.cmake - turn a text file into a C string array (cmake -P): IN, OUT,
# and NAME (the array; default sm_cuda_stub_header).
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
if(NOT NAME)
  set(NAME sm_cuda_stub_header)
endif()
file(WRITE "${OUT}" "/* generated from ${IN}; do not edit */\nconst char ${NAME}[] = {${hex}0x00};\n")
