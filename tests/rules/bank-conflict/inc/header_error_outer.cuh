#pragma once
#include "header_error_inner.cuh"
