/* tr-report's page script: legend toggles, timeline zoom and pan,
 * sortable tables; with #selftest in the address it exercises them and
 * writes the outcome into the page (for the headless browser test). */
(function () {
'use strict';
var NS = 'http://www.w3.org/2000/svg';
var errors = [];
window.addEventListener('error', function (e) {
	errors.push(String(e.message));
});

function el(name, attrs, text) {
	var e = document.createElementNS(NS, name), k;
	for (k in attrs)
		e.setAttribute(k, attrs[k]);
	if (text !== undefined)
		e.textContent = text;
	return e;
}

function toggle(svg, item) {
	var cls = item.getAttribute('data-series');
	var off = !item.classList.contains('off');
	item.classList.toggle('off', off);
	svg.querySelectorAll('.' + CSS.escape(cls)).forEach(function (x) {
		if (!x.classList.contains('legend-item'))
			x.style.display = off ? 'none' : '';
	});
}

function niceStep(range, max) {
	var raw = range / max, p = Math.pow(10, Math.floor(Math.log10(raw)));
	var f = raw / p;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

function unit(step) {
	var names = ['ns', 'us', 'ms', 's'], f = 1, i = 0;
	while (i < 3 && Math.abs(step) >= f * 1000) {
		f *= 1000;
		i++;
	}
	return [f, names[i]];
}

function label(v) {
	return String(parseFloat(v.toPrecision(4)));
}

/* A timeline: the visible part of the original x range [u0, u1] is
 * stretched over the plot [r0, r1]; calls and arrows are moved, not
 * scaled, so text and arrow heads keep their shape. */
function Timeline(fig, svg) {
	var z = svg.querySelector('g.zoom'), ax = svg.querySelector('g.xaxis');
	var r0 = +z.dataset.r0, r1 = +z.dataset.r1;
	/* The whole run, of which [r0, r1] (the solve) is shown first. */
	var a0 = z.dataset.a0 ? +z.dataset.a0 : r0;
	var a1 = z.dataset.a1 ? +z.dataset.a1 : r1;
	var t0 = +ax.dataset.t0, t1 = +ax.dataset.t1;
	var ay = +ax.dataset.y, gy = +ax.dataset.gy;
	var items = [], u0 = r0, u1 = r1, self = this, drag = null;

	z.querySelectorAll('rect').forEach(function (e) {
		items.push([e, 0, +e.getAttribute('x'), +e.getAttribute('width')]);
	});
	z.querySelectorAll('line').forEach(function (e) {
		items.push([e, 1, +e.getAttribute('x1'), +e.getAttribute('x2')]);
	});

	function axis() {
		var a = t0 + (u0 - r0) / (r1 - r0) * (t1 - t0);
		var b = t0 + (u1 - r0) / (r1 - r0) * (t1 - t0);
		var st = niceStep(b - a, 8), u = unit(st), v, x;
		while (ax.firstChild)
			ax.removeChild(ax.firstChild);
		ax.appendChild(el('line', {x1: r0, x2: r1, y1: ay, y2: ay,
		    stroke: '#000'}));
		for (v = Math.ceil(a / st) * st; v <= b + st * 1e-9; v += st) {
			x = r0 + (v - a) / (b - a) * (r1 - r0);
			ax.appendChild(el('line', {x1: x, x2: x, y1: ay, y2: gy,
			    stroke: '#e4e4e4'}));
			ax.appendChild(el('line', {x1: x, x2: x, y1: ay,
			    y2: ay + 5, stroke: '#000'}));
			ax.appendChild(el('text', {x: x, y: ay + 18,
			    'text-anchor': 'middle', 'class': 'tick'},
			    label(v / u[0])));
		}
		ax.appendChild(el('text', {x: (r0 + r1) / 2, y: ay + 36,
		    'text-anchor': 'middle', 'class': 'label'},
		    'time (' + u[1] + ')'));
	}

	function apply() {
		var k = (r1 - r0) / (u1 - u0);
		items.forEach(function (it) {
			if (it[1] === 0) {
				it[0].setAttribute('x', r0 + (it[2] - u0) * k);
				it[0].setAttribute('width',
				    Math.max(it[3] * k, 0.3));
			} else {
				it[0].setAttribute('x1', r0 + (it[2] - u0) * k);
				it[0].setAttribute('x2', r0 + (it[3] - u0) * k);
			}
		});
		axis();
		svg.setAttribute('data-zoom', k.toFixed(3));
	}

	function clamp() {
		var w = u1 - u0;
		if (w > a1 - a0)
			w = a1 - a0;
		if (w < (r1 - r0) / 1e5)
			w = (r1 - r0) / 1e5;
		if (u0 < a0)
			u0 = a0;
		if (u0 + w > a1)
			u0 = a1 - w;
		u1 = u0 + w;
	}

	/* Zooms by f around plot x px. */
	this.zoom = function (f, px) {
		var frac = (px - r0) / (r1 - r0), u = u0 + frac * (u1 - u0);
		var w = (u1 - u0) / f;
		u0 = u - frac * w;
		u1 = u0 + w;
		clamp();
		apply();
	};
	this.pan = function (dpx) {
		var du = -dpx * (u1 - u0) / (r1 - r0);
		u0 += du;
		u1 += du;
		clamp();
		apply();
	};
	this.reset = function () {
		u0 = r0;
		u1 = r1;
		apply();
	};
	this.all = function () {
		u0 = a0;
		u1 = a1;
		apply();
	};

	function svgx(ev) {
		var pt = svg.createSVGPoint();
		pt.x = ev.clientX;
		pt.y = ev.clientY;
		return pt.matrixTransform(svg.getScreenCTM().inverse()).x;
	}
	z.addEventListener('wheel', function (ev) {
		ev.preventDefault();
		self.zoom(ev.deltaY < 0 ? 1.25 : 0.8, svgx(ev));
	}, {passive: false});
	z.addEventListener('mousedown', function (ev) {
		drag = svgx(ev);
		ev.preventDefault();
	});
	window.addEventListener('mousemove', function (ev) {
		var x;
		if (drag === null)
			return;
		x = svgx(ev);
		self.pan(x - drag);
		drag = x;
	});
	window.addEventListener('mouseup', function () {
		drag = null;
	});
	z.addEventListener('dblclick', function () {
		self.reset();
	});
	fig.querySelectorAll('button[data-act]').forEach(function (b) {
		if (b.getAttribute('data-act') === 'all' && a0 === r0 &&
		    a1 === r1)
			b.hidden = true;
		b.addEventListener('click', function () {
			var act = b.getAttribute('data-act'), mid = (r0 + r1) / 2;
			if (act === 'in')
				self.zoom(2, mid);
			else if (act === 'out')
				self.zoom(0.5, mid);
			else if (act === 'left')
				self.pan((r1 - r0) / 4);
			else if (act === 'right')
				self.pan(-(r1 - r0) / 4);
			else if (act === 'all')
				self.all();
			else
				self.reset();
		});
	});
}

function sortable(table) {
	table.querySelectorAll('th').forEach(function (th, i) {
		var dir = 1;
		th.addEventListener('click', function () {
			var body = table.tBodies[0];
			var rows = Array.prototype.slice.call(body.rows);
			rows.sort(function (a, b) {
				var x = a.cells[i].textContent;
				var y = b.cells[i].textContent;
				var nx = parseFloat(x), ny = parseFloat(y);
				if (!isNaN(nx) && !isNaN(ny))
					return (nx - ny) * dir;
				return x < y ? -dir : x > y ? dir : 0;
			});
			dir = -dir;
			rows.forEach(function (r) {
				body.appendChild(r);
			});
		});
	});
}

var timelines = [];
document.querySelectorAll('svg.trplot').forEach(function (svg) {
	svg.querySelectorAll('.legend-item').forEach(function (it) {
		it.addEventListener('click', function () {
			toggle(svg, it);
		});
	});
	if (svg.querySelector('g.zoom'))
		timelines.push(new Timeline(svg.closest('figure') || svg, svg));
});
document.querySelectorAll('table').forEach(sortable);

function selftest() {
	var out = [], ok = true;
	function check(what, cond) {
		out.push((cond ? 'ok ' : 'FAIL ') + what);
		ok = ok && cond;
	}
	document.querySelectorAll('svg.trplot').forEach(function (svg) {
		var it = svg.querySelector('.legend-item'), cls, els, hidden;
		if (!it)
			return;
		cls = it.getAttribute('data-series');
		els = Array.prototype.filter.call(
		    svg.querySelectorAll('.' + CSS.escape(cls)),
		    function (x) {
			return !x.classList.contains('legend-item');
		    });
		it.dispatchEvent(new MouseEvent('click', {bubbles: true}));
		hidden = els.every(function (x) {
			return getComputedStyle(x).display === 'none';
		});
		it.dispatchEvent(new MouseEvent('click', {bubbles: true}));
		check('legend toggle ' + svg.id + ' ' + cls + ' (' + els.length +
		    ' elements)', hidden && els.every(function (x) {
			return getComputedStyle(x).display !== 'none';
		    }));
	});
	document.querySelectorAll('figure[data-kind=timeline]').forEach(
	    function (fig) {
		var svg = fig.querySelector('svg'), before, after, all;
		var ticks = function () {
			return Array.prototype.map.call(
			    svg.querySelectorAll('g.xaxis text'),
			    function (t) { return t.textContent; }).join(' ');
		};
		before = ticks();
		fig.querySelector('button[data-act=in]').click();
		fig.querySelector('button[data-act=in]').click();
		after = ticks();
		check('zoom ' + svg.id + ' x' + svg.getAttribute('data-zoom') +
		    ' ticks [' + after + ']', svg.getAttribute('data-zoom') ===
		    '4.000' && after !== before);
		fig.querySelector('button[data-act=right]').click();
		check('pan ' + svg.id, ticks() !== after);
		fig.querySelector('button[data-act=reset]').click();
		check('reset ' + svg.id, svg.getAttribute('data-zoom') ===
		    '1.000');
		all = fig.querySelector('button[data-act=all]');
		if (all && !all.hidden) {
			all.click();
			check('whole run ' + svg.id + ' x' +
			    svg.getAttribute('data-zoom'),
			    +svg.getAttribute('data-zoom') < 1);
			fig.querySelector('button[data-act=reset]').click();
		}
	});
	check('no script errors', errors.length === 0);
	out = out.concat(errors);
	document.getElementById('selftest').textContent = out.join('\n');
	document.getElementById('selftest').hidden = false;
	document.body.setAttribute('data-selftest', ok ? 'pass' : 'fail');
	if (!ok)
		console.error('tr-report selftest failed:\n' + out.join('\n'));
}

document.body.setAttribute('data-ready', String(timelines.length));
if (location.hash === '#selftest')
	selftest();
})();
